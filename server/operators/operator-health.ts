import type { CallErrorKind, OperatorCallObserver } from './http-call.js';
import type { OperatorKind, PaymentMethod } from './operator.js';

/**
 * Whether this instance reaches each live operator product, as its last call found: checked at
 * start-up (one token each, `connectLiveOperators`'s probe), then kept current by every call
 * an adapter makes (tokens, requests, status checks), through the same observer as the
 * metrics. In memory only: it describes this process's connection, not the operator's history.
 * Shown by `GET /v1/healthz` and the dashboard's overview (docs/decisions/0041-operators-connected.md).
 */
type ConnectionState = 'checking' | 'connected' | 'failing' | 'not_configured';

export interface OperatorConnection {
  name: PaymentMethod;
  product: OperatorKind;
  /** MTN's target environment; null for Orange Money (it has none) and when not configured. */
  environment: string | null;
  state: ConnectionState;
  lastSuccessAt: number | null;
  /** The last failed call: its kind and words for it, never a credential. */
  lastError: { code: CallErrorKind; message: string; at: number } | null;
}

/** One finished call, as an adapter reports it to its observers. */
export interface ObservedCall {
  operator: string;
  call: string;
  error: CallErrorKind | null;
  /** The products the call speaks for: one, or both for a token they share (Orange's). */
  products?: readonly OperatorKind[];
  httpStatus?: number | null;
}

/** Kinds that say the operator cannot be used; a 4xx is one request refused by a reachable operator. */
const failing: ReadonlySet<CallErrorKind> = new Set([
  'auth',
  'timeout',
  'network',
  'http_5xx',
  'bad_response',
]);

/** Words for a failed call, from its name, kind and status: nothing the call carried. */
function describeCallError(
  call: string,
  error: CallErrorKind,
  httpStatus: number | null | undefined,
  timeoutMs: number,
): string {
  const what = call.replaceAll('_', ' ');
  const status = httpStatus ? `HTTP ${httpStatus}, ` : '';
  switch (error) {
    case 'auth':
      return `${what}: ${status}the operator refused the credentials`;
    case 'timeout':
      return `${what}: no answer within ${timeoutMs} ms (OPERATOR_TIMEOUT_MS)`;
    case 'network':
      return `${what}: the operator could not be reached (connection refused, DNS or TLS failure)`;
    case 'http_5xx':
      return `${what}: ${status}the operator failed`;
    case 'http_4xx':
      return `${what}: ${status}the operator refused this request`;
    case 'bad_response':
      return `${what}: ${status}the answer could not be read`;
  }
}

export class OperatorHealth {
  private readonly entries: OperatorConnection[];

  constructor(
    configured: Partial<Record<PaymentMethod, { environment: string | null }>>,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    const names: PaymentMethod[] = ['mtn_momo', 'orange_money'];
    this.entries = names.flatMap((name) =>
      (['collection', 'disbursement'] as const).map((product) => ({
        name,
        product,
        environment: configured[name]?.environment ?? null,
        state: configured[name] ? ('checking' as const) : ('not_configured' as const),
        lastSuccessAt: null,
        lastError: null,
      })),
    );
  }

  /** Every product, configured or not, in a fixed order. */
  list(): readonly OperatorConnection[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  private of(name: PaymentMethod, products?: readonly OperatorKind[]): OperatorConnection[] {
    return this.entries.filter(
      (entry) => entry.name === name && (!products || products.includes(entry.product)),
    );
  }

  /** Records a finished call of a configured operator. */
  record(call: ObservedCall): void {
    const at = this.now();
    for (const entry of this.of(call.operator as PaymentMethod, call.products)) {
      if (entry.state === 'not_configured') continue;
      if (call.error === null) {
        entry.state = 'connected';
        entry.lastSuccessAt = at;
        continue;
      }
      entry.lastError = {
        code: call.error,
        message: describeCallError(call.call, call.error, call.httpStatus, this.timeoutMs),
        at,
      };
      if (failing.has(call.error)) entry.state = 'failing';
    }
  }

  /** An observer for the adapters: records each call here, and passes it on to `next`. */
  observer(next?: OperatorCallObserver): OperatorCallObserver {
    return {
      observe: (call) => {
        this.record(call);
        next?.observe(call);
      },
    };
  }
}
