import type { MobileMoneyOperator } from './operator.js';

/**
 * The live operator until a real adapter (MTN MoMo Open API) is configured: nothing is sent,
 * and every request fails with `operator_error`, so live money is never simulated. Payouts are
 * reversed by the usual failure path. See docs/decisions/0004-live-operator.md.
 */
export const unconnectedOperator: MobileMoneyOperator = {
  async requestToPay() {},
  async transfer() {},
  async status() {
    return { state: 'failed', failureCode: 'operator_error' };
  },
};
