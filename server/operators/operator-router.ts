import { networkOf } from './number-prefixes.js';
import type {
  CurrencyAcceptance,
  MobileMoneyOperator,
  OperatorKind,
  OperatorRequest,
  PaymentMethod,
  StatusQuery,
} from './operator.js';

/**
 * The live operator when at least one adapter is configured: each request goes to the adapter
 * of its payment method (collections name it; payouts carry the one chosen when they were
 * accepted, by the caller or by the number's network).
 */
export function createOperatorRouter(
  adapters: Partial<Record<PaymentMethod, MobileMoneyOperator & { accepts: CurrencyAcceptance }>>,
): MobileMoneyOperator {
  const pick = (msisdn: string, method?: string | null): MobileMoneyOperator | undefined => {
    const chosen = (method ?? networkOf(msisdn)) as PaymentMethod | null;
    return chosen ? adapters[chosen] : undefined;
  };
  const send = (kind: OperatorKind) => async (request: OperatorRequest) => {
    const adapter = pick(request.msisdn, request.paymentMethod);
    if (!adapter) return { state: 'failed' as const, failureCode: 'operator_error' as const };
    return kind === 'collection' ? adapter.requestToPay(request) : adapter.transfer(request);
  };
  return {
    requestToPay: send('collection'),
    transfer: send('disbursement'),
    async status(kind: OperatorKind, query: StatusQuery) {
      const adapter = pick(query.msisdn, query.paymentMethod);
      if (!adapter) return { state: 'failed', failureCode: 'operator_error' };
      return adapter.status(kind, query);
    },
    route(msisdn, paymentMethod) {
      const chosen = (paymentMethod ?? networkOf(msisdn)) as PaymentMethod | null;
      return chosen && adapters[chosen] ? chosen : null;
    },
    acceptance: (method) => adapters[method]?.accepts ?? null,
  };
}
