import type { MobileMoneyOperator } from './operator.js';

/**
 * The live operator while no adapter (MTN MoMo, Orange Money) is configured: nothing is sent,
 * and every request fails with `operator_error`, so live money is never simulated. Payouts are
 * reversed by the usual failure path. See docs/decisions/0004-operators.md.
 */
export const unconnectedOperator: MobileMoneyOperator = {
  async requestToPay() {
    return { state: 'accepted' };
  },
  async transfer() {
    return { state: 'accepted' };
  },
  async status() {
    return { state: 'failed', failureCode: 'operator_error' };
  },
};
