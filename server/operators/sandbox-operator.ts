import type { MobileMoneyOperator, OperatorKind, OperatorStatus } from './operator.js';

/**
 * The sandbox's simulated MTN and Orange operators. The outcome is a pure function of the phone
 * number and of the time since the request, so it survives restarts with nothing in memory:
 *
 * - a number ending in 1 fails (collections: payer_declined; disbursements: recipient_rejected);
 * - a number ending in 4 never settles (the request expires or times out);
 * - any other number succeeds;
 *
 * each after `settleMs`, by `clock` (the service's, server/domain/clock.ts: a test moves it).
 */
export function createSandboxOperator(options: {
  settleMs: number;
  clock: { now(): number };
}): MobileMoneyOperator {
  return {
    async requestToPay() {
      return { state: 'accepted' };
    },
    async transfer() {
      return { state: 'accepted' };
    },
    async status(kind: OperatorKind, request): Promise<OperatorStatus> {
      if (options.clock.now() - request.initiatedAt < options.settleMs) return { state: 'pending' };
      if (request.msisdn.endsWith('4')) return { state: 'pending' };
      if (request.msisdn.endsWith('1')) {
        return {
          state: 'failed',
          failureCode: kind === 'collection' ? 'payer_declined' : 'recipient_rejected',
        };
      }
      return { state: 'success' };
    },
  };
}
