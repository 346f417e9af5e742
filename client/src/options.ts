import { PaymentsConfigError } from './errors.js';
import { defaultRetryOptions, type RetryOptions } from './retry-policy.js';
import type { Fetch } from './retrying-fetch.js';
import { isBrowser } from './runtime.js';

const defaultBaseUrl = 'http://127.0.0.1:3000/v1';
/** The environment variable read when no `baseUrl` is given: `npm start` prints it. */
const baseUrlVariable = 'PAYMENTS_BASE_URL';
const defaultTimeoutMs = 30_000;

/** What `createPaymentsClient` accepts. */
export interface PaymentsClientOptions {
  /** Your secret key: `sk_test_...` in the sandbox, `sk_live_...` in production. */
  apiKey: string;
  /** The UUID of your account's API user, sent as `X-API-User`. */
  apiUser: string;
  /**
   * The API's address, `/v1` included. Default: the `PAYMENTS_BASE_URL` environment variable
   * (on Node.js), else `http://127.0.0.1:3000/v1` (`npm start`).
   */
  baseUrl?: string;
  /**
   * Adds `test=true` to every call: the API then refuses a live key instead of moving real
   * money. Refused at once with a live key.
   */
  sandbox?: boolean;
  /** The fetch that sends requests. Default `globalThis.fetch`. */
  fetch?: Fetch;
  /** Retries on network errors, timeouts, 429 and 5xx. Default `{ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 }`. */
  retry?: Partial<RetryOptions>;
  /** Each attempt is aborted after this many milliseconds, then retried. Default 30000. */
  timeoutMs?: number;
}

export interface ResolvedOptions {
  apiKey: string;
  apiUser: string;
  baseUrl: string;
  sandbox: boolean;
  fetch: Fetch;
  retry: RetryOptions;
  timeoutMs: number;
}

/** Applies the defaults and refuses unusable or unsafe options before any request is sent. */
export function resolveOptions(options: PaymentsClientOptions): ResolvedOptions {
  const {
    apiKey,
    apiUser,
    sandbox = false,
    baseUrl = baseUrlFromEnvironment() ?? defaultBaseUrl,
    timeoutMs = defaultTimeoutMs,
  } = options;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new PaymentsConfigError(
      'invalid_option',
      '`apiKey` is required: your secret key, sk_test_... or sk_live_...',
    );
  }
  if (typeof apiUser !== 'string' || apiUser.trim() === '') {
    throw new PaymentsConfigError(
      'invalid_option',
      "`apiUser` is required: the UUID of your account's API user",
    );
  }
  const live = apiKey.startsWith('sk_live_');
  if (live && sandbox) {
    throw new PaymentsConfigError(
      'live_key_in_sandbox',
      '`sandbox: true` was given with a live key (sk_live_...): use your test key (sk_test_...) in the sandbox, ' +
        'or drop `sandbox` to move real money.',
    );
  }
  if (live && isBrowser()) {
    throw new PaymentsConfigError(
      'live_key_in_browser',
      'A live secret key (sk_live_...) must never reach a browser, where anyone can read it: ' +
        'call the API from your server and keep the key there.',
    );
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new PaymentsConfigError('invalid_option', `\`baseUrl\` is not an absolute URL: ${baseUrl}`);
  }
  const retry = { ...defaultRetryOptions, ...options.retry };
  for (const [name, value] of Object.entries(retry)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new PaymentsConfigError(
        'invalid_option',
        `\`retry.${name}\` must be an integer of 0 or more, not ${value}`,
      );
    }
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new PaymentsConfigError(
      'invalid_option',
      `\`timeoutMs\` must be a positive integer, not ${timeoutMs}`,
    );
  }
  return {
    apiKey,
    apiUser,
    baseUrl,
    sandbox,
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    retry,
    timeoutMs,
  };
}

/** `PAYMENTS_BASE_URL` when the client runs where there is an environment (Node.js), and it is set. */
function baseUrlFromEnvironment(): string | undefined {
  const value = globalThis.process?.env?.[baseUrlVariable];
  return value === undefined || value === '' ? undefined : value;
}
