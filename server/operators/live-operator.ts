import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { OperatorCallObserver } from './http-call.js';
import { createMtnMomoOperator } from './mtn-momo/mtn-momo-operator.js';
import type { MobileMoneyOperator } from './operator.js';
import { createOperatorRouter } from './operator-router.js';
import { createOrangeMoneyOperator } from './orange-money/orange-money-operator.js';
import { unconnectedOperator } from './unconnected-operator.js';

/**
 * The operator of live mode, from the configuration: the adapters whose credentials are set,
 * behind a router; with none, the unconnected operator (every request fails `operator_error`).
 */
export function liveOperator(
  config: Config,
  logger: Logger,
  metrics?: OperatorCallObserver,
): MobileMoneyOperator {
  const adapters: Parameters<typeof createOperatorRouter>[0] = {};
  if (config.mtnMomo) {
    adapters.mtn_momo = {
      ...createMtnMomoOperator({ config: config.mtnMomo, logger, ...(metrics ? { metrics } : {}) }),
      accepts: {
        currencies: config.mtnMomo.currencies,
        environment: `MTN MoMo's ${config.mtnMomo.targetEnvironment} environment`,
      },
    };
  }
  if (config.orangeMoney) {
    adapters.orange_money = {
      ...createOrangeMoneyOperator({ config: config.orangeMoney, logger, ...(metrics ? { metrics } : {}) }),
      accepts: { currencies: config.orangeMoney.currencies, environment: 'Orange Money' },
    };
  }
  if (Object.keys(adapters).length === 0) return unconnectedOperator;
  return createOperatorRouter(adapters);
}
