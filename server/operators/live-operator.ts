import type { Logger } from '../observability/logger.js';
import type { OperatorCallObserver } from './http-call.js';
import { createMtnMomoOperator, type MtnMomoConfig } from './mtn-momo/mtn-momo-operator.js';
import type { MobileMoneyOperator, PaymentMethod } from './operator.js';
import { OperatorHealth } from './operator-health.js';
import { createOperatorRouter } from './operator-router.js';
import { createOrangeMoneyOperator, type OrangeMoneyConfig } from './orange-money/orange-money-operator.js';
import { unconnectedOperator } from './unconnected-operator.js';

export interface LiveOperators {
  /** The operator of live mode: the configured adapters behind a router, or the unconnected one. */
  operator: MobileMoneyOperator;
  /** Whether each product is reached, as its last call found (GET /v1/healthz, the dashboard). */
  health: OperatorHealth;
  /**
   * Asks each configured product for a token once and logs, per operator, product and
   * environment, `operator connected` or why not; never rejects. Start-up runs it without
   * waiting (docs/decisions/0041-operators-connected.md).
   */
  probe(): Promise<void>;
}

/**
 * What connecting the live operators reads of the configuration (server/config.ts gives it):
 * each product's credentials when set, and how long a call may take.
 */
export interface LiveOperatorSettings {
  mtnMomo: MtnMomoConfig | null;
  orangeMoney: OrangeMoneyConfig | null;
  operatorTimeoutMs: number;
}

const labels: Record<PaymentMethod, string> = { mtn_momo: 'MTN MoMo', orange_money: 'Orange Money' };

/**
 * The operators of live mode, from the configuration: the adapters whose credentials are set,
 * behind a router; with none, the unconnected operator (every request fails `operator_error`).
 * Every call they make is reported to `metrics` and to the connection state (`health`).
 */
export function connectLiveOperators(
  config: LiveOperatorSettings,
  logger: Logger,
  metrics?: OperatorCallObserver,
): LiveOperators {
  const health = new OperatorHealth(
    {
      ...(config.mtnMomo ? { mtn_momo: { environment: config.mtnMomo.targetEnvironment } } : {}),
      ...(config.orangeMoney ? { orange_money: { environment: null } } : {}),
    },
    config.operatorTimeoutMs,
  );
  const observer = health.observer(metrics);
  const adapters: Parameters<typeof createOperatorRouter>[0] = {};
  const probes: Array<() => Promise<void>> = [];
  if (config.mtnMomo) {
    const mtn = createMtnMomoOperator({ config: config.mtnMomo, logger, metrics: observer });
    probes.push(() => mtn.probe());
    adapters.mtn_momo = {
      ...mtn,
      accepts: {
        currencies: config.mtnMomo.currencies,
        environment: `MTN MoMo's ${config.mtnMomo.targetEnvironment} environment`,
      },
    };
  }
  if (config.orangeMoney) {
    const orange = createOrangeMoneyOperator({ config: config.orangeMoney, logger, metrics: observer });
    probes.push(() => orange.probe());
    adapters.orange_money = {
      ...orange,
      accepts: { currencies: config.orangeMoney.currencies, environment: 'Orange Money' },
    };
  }
  const operator = Object.keys(adapters).length === 0 ? unconnectedOperator : createOperatorRouter(adapters);
  return {
    operator,
    health,
    async probe() {
      await Promise.allSettled(probes.map((probe) => probe()));
      logConnections(health, logger);
    },
  };
}

/** One line per product: connected, failing (with the reason) or not configured. */
function logConnections(health: OperatorHealth, logger: Logger): void {
  for (const entry of health.list()) {
    const fields = { operator: entry.name, product: entry.product, environment: entry.environment };
    const label = `${labels[entry.name]} ${entry.product}`;
    if (entry.state === 'connected') {
      logger.info({ ...fields, state: 'connected' }, `${label}: connected`);
    } else if (entry.state === 'not_configured') {
      logger.info(
        { ...fields, state: 'not_configured' },
        `${label}: not configured (live requests through it fail with operator_error)`,
      );
    } else {
      logger.warn(
        { ...fields, state: entry.state, error: entry.lastError?.code ?? null },
        `${label}: not connected: ${entry.lastError?.message ?? 'no answer yet'}`,
      );
    }
  }
}
