import { parseSmtpSettings, type SmtpConfig } from './mail/smtp.js';
import type { MtnMomoConfig } from './operators/mtn-momo/mtn-momo-operator.js';
import type { OrangeMoneyConfig } from './operators/orange-money/orange-money-operator.js';
import { parseSecretsKey } from './secrets-key.js';

/**
 * Settings from environment variables, checked once at start-up. A bad value stops the
 * process with the names of every bad variable, instead of failing later mid-request.
 * Every variable is documented in .env.example.
 */
export interface Config {
  port: number;
  host: string;
  /** SQLite file, used when no DATABASE_URL is set. */
  databasePath: string;
  /** PostgreSQL (`postgres://...`): set, every instance pointed at it shares one database. */
  database: { url: string; poolSize: number; statementTimeoutMs: number } | null;
  /** Base address used in links the API returns (checkout pages), without /v1. */
  publicUrl: string;
  /** No PUBLIC_URL was given: links use the address the server listens on. */
  publicUrlFromListener: boolean;
  /**
   * Where password reset links are mailed (SMTP_URL and SMTP_FROM); null without them, and the
   * links come from `npm run admin -- reset-link` instead.
   */
  mail: SmtpConfig | null;
  nodeEnv: 'development' | 'test' | 'production';
  validateResponses: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  sandboxSettleMs: number;
  settlementPollMs: number;
  /** How often the batch worker gathers waiting bank payouts into pain.001 files. */
  bankBatchIntervalMs: number;
  paymentExpirySeconds: number;
  payoutTimeoutSeconds: number;
  bodyLimitBytes: number;
  bulkPayoutMaxItems: number;
  rateLimitPerWindow: number;
  rateLimitWindowMs: number;
  logRetentionDays: number;
  webhookTimeoutMs: number;
  webhookPollMs: number;
  webhookRetryBaseMs: number;
  webhookRetryMaxMs: number;
  webhookMaxAgeMs: number;
  /**
   * Sandbox endpoints may point at loopback and private addresses (local receivers). Off by
   * default in every NODE_ENV: an operator (or a test) opts in. Live endpoints never may.
   */
  webhookAllowPrivateUrlsInTest: boolean;
  /** Deliveries in flight at once, in all; per account and mode; per endpoint. */
  webhookConcurrency: number;
  webhookConcurrencyPerAccount: number;
  webhookConcurrencyPerEndpoint: number;
  /**
   * Deliveries a slot going on to its endpoint's next keeps leased ahead, so that it sends
   * while its records commit (0: it waits for each record).
   */
  webhookLeaseAhead: number;
  /** Endpoints an account may have per mode. */
  webhookMaxEndpointsPerAccount: number;
  /** Consecutive failed attempts after which an endpoint's deliveries pause (circuit breaker). */
  webhookCircuitFailures: number;
  /** First pause of an endpoint whose circuit opened; doubles while it keeps failing (max 1 h). */
  webhookCircuitCooldownMs: number;
  /**
   * Key-encryption key for secrets the server must read back (SECRETS_ENCRYPTION_KEY, 32
   * bytes). Required in production; elsewhere a key file beside the database is used.
   */
  secretsEncryptionKey: Buffer | undefined;
  /** Bearer token that `GET /metrics` requires (METRICS_TOKEN); unset, /metrics is off. */
  metricsToken: string | undefined;
  /**
   * The request header that carries the client's address, set by the reverse proxy in front
   * (TRUST_PROXY, for example `x-forwarded-for`; its last address is the one the proxy
   * appended). Null, the default: the connection's own address, and every such header is
   * ignored, since anyone can send one. Limits per client address (failed authentications,
   * dashboard sign-ins) count by it.
   */
  trustProxy: string | null;
  /** Failed authentications allowed per client address per window before 429. */
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** Live MTN MoMo Open API credentials; null when none are set (live stays unconnected). */
  mtnMomo: MtnMomoConfig | null;
  /** Live Orange Money credentials; null when none are set. */
  orangeMoney: OrangeMoneyConfig | null;
  /** Deadline of each call to an operator; past it the outcome is unknown and asked again. */
  operatorTimeoutMs: number;
  /**
   * At shutdown, how long in-flight responses get to finish before their connections are cut
   * (a client that stopped reading would otherwise hold the process for ever).
   */
  shutdownGraceMs: number;
  /**
   * Slow clients (docs/decisions/0032-requests-bounded.md): a request's headers must arrive
   * within `headersTimeoutMs` and the whole request, body included, within `requestTimeoutMs`
   * (else `408` and the connection closed); an idle connection is closed after
   * `keepAliveTimeoutMs`.
   */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  /**
   * Operator callbacks answered per client address and window before `429` (they are
   * unauthenticated: docs/decisions/0033-operator-callbacks-bounded.md).
   */
  operatorCallbackLimit: number;
  operatorCallbackWindowMs: number;
}

const mtnRequired = [
  'MTN_MOMO_BASE_URL',
  'MTN_MOMO_TARGET_ENVIRONMENT',
  'MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY',
  'MTN_MOMO_COLLECTION_API_USER',
  'MTN_MOMO_COLLECTION_API_KEY',
  'MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY',
  'MTN_MOMO_DISBURSEMENT_API_USER',
  'MTN_MOMO_DISBURSEMENT_API_KEY',
] as const;
const orangeRequired = [
  'ORANGE_MONEY_BASE_URL',
  'ORANGE_MONEY_CLIENT_ID',
  'ORANGE_MONEY_CLIENT_SECRET',
  'ORANGE_MONEY_AUTH_TOKEN',
  'ORANGE_MONEY_CHANNEL_MSISDN',
  'ORANGE_MONEY_PIN',
] as const;

/** A comma-separated list of ISO 4217 codes (`XAF,XOF`), or `fallback` when unset. */
function currencyList(env: Env, name: string, fallback: string[], problems: string[]): string[] {
  const value = env[name];
  if (!value) return fallback;
  const codes = value.split(',').map((code) => code.trim());
  if (codes.some((code) => !/^[A-Z]{3}$/.test(code))) {
    problems.push(`${name} must be ISO 4217 codes separated by commas, for example XAF or EUR`);
  }
  return codes;
}

/**
 * An operator's variables are all set or none: a partial set stops the start-up naming what
 * is missing (a live payment must never fail later for want of a key). URLs must be http(s);
 * in production https (they carry credentials).
 */
function operatorSettings<Name extends string>(
  env: Env,
  operator: string,
  required: readonly Name[],
  optional: readonly string[],
  production: boolean,
  problems: string[],
): Record<Name, string> | null {
  const given = [...required, ...optional].filter((name) => env[name]);
  if (given.length === 0) return null;
  const missing = required.filter((name) => !env[name]);
  if (missing.length > 0) {
    problems.push(`${operator} is partly configured: set ${missing.join(', ')} (or none of its variables)`);
    return null;
  }
  for (const name of [...required, ...optional].filter((n) => n.endsWith('_URL') && env[n])) {
    const value = env[name] as string;
    const ok = production ? /^https:\/\/[^\s]+$/.test(value) : /^https?:\/\/[^\s]+$/.test(value);
    if (!ok) problems.push(`${name} must be an ${production ? 'https' : 'http(s)'} URL (got "${value}")`);
  }
  return Object.fromEntries(required.map((name) => [name, env[name] as string])) as Record<Name, string>;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * @example
 * const config = loadConfig(process.env); // throws ConfigError listing every bad variable
 */
/** TRUST_PROXY: unset, empty or `false` is off; otherwise a header name, lower-cased. */
function proxyHeader(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined || raw === '' || raw === 'false') return null;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(raw)) {
    problems.push(`TRUST_PROXY must be a header name such as x-forwarded-for, or false (got "${raw}")`);
    return null;
  }
  return raw.toLowerCase();
}

/** SMTP_URL and SMTP_FROM, both or neither. */
function mailSettings(env: Env, problems: string[]): SmtpConfig | null {
  const url = env.SMTP_URL || '';
  const from = env.SMTP_FROM || '';
  if (!url && !from) return null;
  if (!url || !from) {
    problems.push('SMTP_URL and SMTP_FROM go together: set both, or neither (no mail is sent)');
    return null;
  }
  const settings = parseSmtpSettings(url, from, 15_000);
  if (typeof settings === 'string') {
    problems.push(settings);
    return null;
  }
  return settings;
}

export function loadConfig(env: Env): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw !== 'true' && raw !== 'false') {
      problems.push(`${name} must be true or false (got "${raw}")`);
      return fallback;
    }
    return raw === 'true';
  };

  const nodeEnv = oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const port = int('PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(
    /\/$/,
    '',
  );
  if (!/^https?:\/\/[^/]+$/.test(publicUrl)) {
    problems.push(`PUBLIC_URL must be an http(s) origin without a path (got "${env.PUBLIC_URL}")`);
  }

  const config: Config = {
    port,
    host,
    databasePath: env.DATABASE_PATH || './data/payments.db',
    database: null,
    publicUrl,
    publicUrlFromListener: !env.PUBLIC_URL,
    mail: mailSettings(env, problems),
    nodeEnv,
    validateResponses: bool('VALIDATE_RESPONSES', nodeEnv !== 'production'),
    logLevel: oneOf('LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ] as const),
    sandboxSettleMs: int('SANDBOX_SETTLE_MS', 3000, 0, 3_600_000),
    settlementPollMs: int('SETTLEMENT_POLL_MS', 250, 10, 60_000),
    bankBatchIntervalMs: int('BANK_BATCH_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
    paymentExpirySeconds: int('PAYMENT_EXPIRY_SECONDS', 300, 1, 86_400),
    payoutTimeoutSeconds: int('PAYOUT_TIMEOUT_SECONDS', 300, 1, 86_400),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 65_536, 1024, 10_485_760),
    bulkPayoutMaxItems: int('BULK_PAYOUT_MAX_ITEMS', 100, 1, 100),
    rateLimitPerWindow: int('RATE_LIMIT_PER_WINDOW', 100, 1, 1_000_000_000),
    rateLimitWindowMs: int('RATE_LIMIT_WINDOW_MS', 1000, 100, 3_600_000),
    logRetentionDays: int('LOG_RETENTION_DAYS', 30, 1, 3650),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookPollMs: int('WEBHOOK_POLL_MS', 500, 10, 60_000),
    webhookRetryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 30_000, 1, 86_400_000),
    webhookRetryMaxMs: int('WEBHOOK_RETRY_MAX_MS', 6 * 3_600_000, 1, 86_400_000),
    webhookMaxAgeMs: int('WEBHOOK_MAX_AGE_MS', 3 * 86_400_000, 1, 30 * 86_400_000),
    webhookAllowPrivateUrlsInTest: bool('WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST', false),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 64, 2, 10_000),
    webhookConcurrencyPerAccount: int('WEBHOOK_CONCURRENCY_PER_ACCOUNT', 16, 1, 10_000),
    webhookConcurrencyPerEndpoint: int('WEBHOOK_CONCURRENCY_PER_ENDPOINT', 8, 1, 10_000),
    webhookLeaseAhead: int('WEBHOOK_LEASE_AHEAD', 4, 0, 16),
    webhookMaxEndpointsPerAccount: int('WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT', 16, 1, 1000),
    webhookCircuitFailures: int('WEBHOOK_CIRCUIT_FAILURES', 5, 1, 1000),
    webhookCircuitCooldownMs: int('WEBHOOK_CIRCUIT_COOLDOWN_MS', 30_000, 1, 3_600_000),
    secretsEncryptionKey: undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    trustProxy: proxyHeader(env.TRUST_PROXY, problems),
    authFailureLimit: int('AUTH_FAILURE_LIMIT', 20, 1, 1_000_000),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    http: {
      headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 600_000),
    },
    operatorCallbackLimit: int('OPERATOR_CALLBACK_LIMIT', 600, 1, 1_000_000),
    operatorCallbackWindowMs: int('OPERATOR_CALLBACK_WINDOW_MS', 60_000, 100, 3_600_000),
    authFailureWindowMs: int('AUTH_FAILURE_WINDOW_MS', 60_000, 1000, 3_600_000),
    mtnMomo: null,
    orangeMoney: null,
    operatorTimeoutMs: 15_000,
  };
  if (config.http.requestTimeoutMs < config.http.headersTimeoutMs) {
    problems.push(
      'HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  const production = nodeEnv === 'production';
  const mtn = operatorSettings(
    env,
    'MTN MoMo',
    mtnRequired,
    ['MTN_MOMO_CALLBACK_URL', 'MTN_MOMO_CURRENCIES', 'MTN_MOMO_REQUESTS_PER_SECOND'],
    production,
    problems,
  );
  const orange = operatorSettings(
    env,
    'Orange Money',
    orangeRequired,
    ['ORANGE_MONEY_NOTIFY_URL', 'ORANGE_MONEY_CURRENCIES'],
    production,
    problems,
  );
  const operatorTimeoutMs = int('OPERATOR_TIMEOUT_MS', 15_000, 100, 120_000);
  config.operatorTimeoutMs = operatorTimeoutMs;
  config.mtnMomo = mtn && {
    baseUrl: mtn.MTN_MOMO_BASE_URL,
    targetEnvironment: mtn.MTN_MOMO_TARGET_ENVIRONMENT,
    collection: {
      subscriptionKey: mtn.MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY,
      apiUser: mtn.MTN_MOMO_COLLECTION_API_USER,
      apiKey: mtn.MTN_MOMO_COLLECTION_API_KEY,
    },
    disbursement: {
      subscriptionKey: mtn.MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY,
      apiUser: mtn.MTN_MOMO_DISBURSEMENT_API_USER,
      apiKey: mtn.MTN_MOMO_DISBURSEMENT_API_KEY,
    },
    callbackUrl: env.MTN_MOMO_CALLBACK_URL || undefined,
    timeoutMs: operatorTimeoutMs,
    // MTN's sandbox takes EUR only; its production environments their country's currency.
    currencies: currencyList(
      env,
      'MTN_MOMO_CURRENCIES',
      mtn.MTN_MOMO_TARGET_ENVIRONMENT === 'sandbox' ? ['EUR'] : ['XAF'],
      problems,
    ),
    // MTN allows 10 requests a second per product: stay under it by default.
    requestsPerSecond: int('MTN_MOMO_REQUESTS_PER_SECOND', 8, 1, 1000),
  };
  config.orangeMoney = orange && {
    baseUrl: orange.ORANGE_MONEY_BASE_URL,
    clientId: orange.ORANGE_MONEY_CLIENT_ID,
    clientSecret: orange.ORANGE_MONEY_CLIENT_SECRET,
    authToken: orange.ORANGE_MONEY_AUTH_TOKEN,
    channelMsisdn: orange.ORANGE_MONEY_CHANNEL_MSISDN,
    pin: orange.ORANGE_MONEY_PIN,
    notifyUrl: env.ORANGE_MONEY_NOTIFY_URL || undefined,
    timeoutMs: operatorTimeoutMs,
    currencies: currencyList(env, 'ORANGE_MONEY_CURRENCIES', ['XAF'], problems),
  };
  if (env.DATABASE_URL) {
    const url = env.DATABASE_URL;
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol) || parsed.pathname.length < 2) {
      problems.push(
        'DATABASE_URL must be a PostgreSQL URL naming its database, postgres://user:password@host:5432/payments ' +
          '(unset it to use the SQLite file of DATABASE_PATH)',
      );
    }
    if (!env.SECRETS_ENCRYPTION_KEY) {
      problems.push(
        'SECRETS_ENCRYPTION_KEY is required with DATABASE_URL: every instance must seal and open secrets with ' +
          'the same key (32 bytes, hex: openssl rand -hex 32)',
      );
    }
    config.database = {
      url,
      poolSize: int('DATABASE_POOL_SIZE', 10, 1, 1000),
      statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 100, 600_000),
    };
  } else {
    for (const name of ['DATABASE_POOL_SIZE', 'DATABASE_STATEMENT_TIMEOUT_MS']) {
      if (env[name]) problems.push(`${name} applies to PostgreSQL only: set DATABASE_URL too, or unset it`);
    }
  }
  const kek = env.SECRETS_ENCRYPTION_KEY;
  if (kek) {
    config.secretsEncryptionKey = parseSecretsKey(kek);
    if (!config.secretsEncryptionKey) {
      problems.push('SECRETS_ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64');
    }
  } else if (nodeEnv === 'production') {
    problems.push('SECRETS_ENCRYPTION_KEY is required in production (32 bytes, hex: openssl rand -hex 32)');
  }
  if (config.metricsToken !== undefined && config.metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
