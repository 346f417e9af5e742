/**
 * Type-level tests: the contract's types guide every call. Wrong paths, field names, types and
 * missing required fields do not compile (`@ts-expect-error` fails the type check when the line
 * below it compiles), and answers are typed as the contract says.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  autoPagingToArray,
  type components,
  createPaymentsClient,
  type DocumentedError,
  type ErrorEnvelope,
  type EventName,
  generateTestHeader,
  type ListItem,
  type ListPath,
  operationError,
  type Payment,
  type PaymentsClient,
  paginate,
  requestIdOf,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
} from '../../client/src/index.js';
import { sandbox } from '../support/fixtures.js';
import { somePayment, someServiceId } from './local-server.js';

declare const client: PaymentsClient;

const payment = somePayment;

describe('createPaymentsClient', () => {
  it('requires the key and the API user, and types the options', () => {
    expectTypeOf(createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u' })).toEqualTypeOf<PaymentsClient>();
    // @ts-expect-error apiUser is required
    createPaymentsClient({ apiKey: 'sk_test_x' });
    // @ts-expect-error sandbox is a boolean
    createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u', sandbox: 'yes' });
    // @ts-expect-error retry options are named maxRetries, baseDelayMs, maxDelayMs
    createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u', retry: { retries: 3 } });
  });
});

describe('requests', () => {
  it('accepts only the contract’s paths and methods', () => {
    // @ts-expect-error no such path
    client.GET('/payment', {});
    // @ts-expect-error /balance has no POST
    client.POST('/balance', {});
  });

  it('requires the path parameters', () => {
    client.GET('/payments/{id}', { params: { path: { id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } } });
    // @ts-expect-error the id is required
    client.GET('/payments/{id}');
    // @ts-expect-error the path parameter is `id`
    client.GET('/payments/{id}', { params: { path: { payment_id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } } });
  });

  it('types the query parameters', () => {
    client.GET('/payments', { params: { query: { status: 'success', limit: 50, test: true } } });
    // @ts-expect-error `state` is not a filter of listPayments
    client.GET('/payments', { params: { query: { state: 'success' } } });
    // @ts-expect-error `status` is one of the payment statuses
    client.GET('/payments', { params: { query: { status: 'paid' } } });
    // @ts-expect-error `limit` is a number
    client.GET('/payments', { params: { query: { limit: '50' } } });
    // @ts-expect-error the export's period is required
    client.GET('/reports/balance-transactions', { params: { query: { currency: 'XAF' } } });
  });

  it('types request bodies: field names, types and required fields', () => {
    client.POST('/payments', { body: payment });
    // @ts-expect-error the body is required
    client.POST('/payments', {});
    // @ts-expect-error `service_id` is required
    client.POST('/payments', { body: { ...payment, service_id: undefined } });
    client.POST('/payments', {
      body: {
        amount: 2500,
        currency: 'XAF',
        // @ts-expect-error the field is `customer_msisdn`, not `customerMsisdn`
        customerMsisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: someServiceId,
      },
    });
    // @ts-expect-error `amount` is an integer in minor units, not a string
    client.POST('/payments', { body: { ...payment, amount: '2500' } });
    // @ts-expect-error `currency` is one of the supported ISO 4217 codes
    client.POST('/payments', { body: { ...payment, currency: 'USD' } });
    client.POST('/payouts', {
      // @ts-expect-error `payout_type` is withdrawal or transfer
      body: { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'refund' },
    });
  });

  it('types the Idempotency-Key header the caller may give', () => {
    client.POST('/payments', { body: payment, params: { header: { 'Idempotency-Key': 'order-1042' } } });
    // @ts-expect-error the key is a string
    client.POST('/payments', { body: payment, params: { header: { 'Idempotency-Key': 1042 } } });
  });
});

describe('answers', () => {
  it('types data as the success envelope and error as the error envelope', async () => {
    const { data, error, response } = await client.GET('/payments/{id}', {
      params: { path: { id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } },
    });
    expectTypeOf(response).toEqualTypeOf<Response>();
    expectTypeOf(data).toEqualTypeOf<components['schemas']['PaymentResponse'] | undefined>();
    expectTypeOf(error).toEqualTypeOf<ErrorEnvelope | undefined>();
    if (data) {
      expectTypeOf(data.data).toEqualTypeOf<Payment>();
      expectTypeOf(data.data.amount).toBeNumber();
      expectTypeOf(data.data.status).toEqualTypeOf<'initiated' | 'success' | 'failed' | 'expired'>();
      // @ts-expect-error fields stay snake_case, as the contract spells them
      data.data.transactionId;
    }
  });

  it('narrows data and error against each other', async () => {
    const result = await client.POST('/payouts', {
      body: { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
    });
    if (result.error) {
      expectTypeOf(result.data).toBeUndefined();
      expectTypeOf(result.error.error.code).toEqualTypeOf<components['schemas']['ErrorCode']>();
      expectTypeOf(result.error.error.request_id).toBeString();
    } else {
      expectTypeOf(result.data.data.transaction_id).toBeString();
      expectTypeOf(result.data.data.payout_type).toEqualTypeOf<'withdrawal' | 'transfer' | 'refund'>();
    }
  });

  it('types the CSV export as text when read as text', async () => {
    const { data } = await client.GET('/reports/balance-transactions', {
      params: { query: { created_gte: '2026-11-01T00:00:00Z', created_lt: '2026-12-01T00:00:00Z' } },
      parseAs: 'text',
    });
    expectTypeOf(data).toEqualTypeOf<string | undefined>();
  });

  it('makes the request id reachable from any response', () => {
    expectTypeOf(requestIdOf).parameter(0).toEqualTypeOf<Response>();
    expectTypeOf(requestIdOf).returns.toEqualTypeOf<string | undefined>();
  });
});

describe('paginate', () => {
  it('yields the items of the list it is given', () => {
    expectTypeOf(paginate(client, '/payments')).toEqualTypeOf<AsyncGenerator<Payment, void, undefined>>();
    expectTypeOf<ListItem<'/events/{id}/deliveries'>>().toEqualTypeOf<components['schemas']['Delivery']>();
    expectTypeOf<ListItem<'/logs'>>().toEqualTypeOf<components['schemas']['Log']>();
  });

  it('accepts list operations only', () => {
    expectTypeOf<
      '/payments' | '/payouts' | '/services' | '/events/{id}/deliveries'
    >().toMatchTypeOf<ListPath>();
    // @ts-expect-error reading one payment is not a list
    paginate(client, '/payments/{id}', {});
    // @ts-expect-error /balance is not a list
    paginate(client, '/balance', {});
  });

  it('types the list’s parameters and requires its path parameters', () => {
    paginate(client, '/payouts', { params: { query: { status: 'pending', limit: 100 } } });
    // @ts-expect-error `pending` is not a payment status
    paginate(client, '/payments', { params: { query: { status: 'pending' } } });
    // @ts-expect-error the event id is required
    paginate(client, '/events/{id}/deliveries');
  });
});

describe('verifyWebhook', () => {
  it('returns the typed event, whose name is one of the contract’s event names', () => {
    const event = verifyWebhook('{}', 't=1,v1=00', 'whsec_x');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(event.event).toEqualTypeOf<EventName>();
    expectTypeOf<EventName>().toEqualTypeOf<
      | 'payment.completed'
      | 'payment.failed'
      | 'payment.expired'
      | 'payout.completed'
      | 'payout.failed'
      | 'refund.completed'
      | 'refund.failed'
      | 'topup.completed'
      | 'topup.failed'
      | 'topup.expired'
    >();
    // @ts-expect-error not an event name of the contract
    if (event.event === 'payment.succeeded') return;
  });

  it('takes the raw body as text or bytes, never parsed JSON', () => {
    verifyWebhook(new Uint8Array(), 't=1,v1=00', 'whsec_x', { toleranceSeconds: 60, now: new Date() });
    // @ts-expect-error the raw body, not the parsed event
    verifyWebhook({ id: 'evt_x' }, 't=1,v1=00', 'whsec_x');
  });
});

describe('autoPagingToArray', () => {
  it('resolves to an array of the list’s item type, and needs a limit', async () => {
    const client = createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u', sandbox: true });
    expectTypeOf(await autoPagingToArray(client, '/payments', { limit: 50 })).toEqualTypeOf<Payment[]>();
    // @ts-expect-error the limit is required
    autoPagingToArray(client, '/payments', {});
    // @ts-expect-error the event id is required
    autoPagingToArray(client, '/events/{id}/deliveries', { limit: 5 });
  });
});

describe('events narrowed by type', () => {
  it('checking event.event narrows event.data', () => {
    const event = verifyWebhook('{}', 't=1,v1=00', 'whsec_x');
    if (event.event === 'refund.completed') {
      expectTypeOf(event.data.payment_id).toEqualTypeOf<string>();
      expectTypeOf(event.data.status).toEqualTypeOf<'success'>();
      expectTypeOf(event.data.failure_code).toEqualTypeOf<null>();
    }
    if (event.event === 'payment.failed') {
      expectTypeOf(event.data.status).toEqualTypeOf<'failed'>();
      expectTypeOf(event.data.failure_code).not.toEqualTypeOf<null>();
    }
    if (event.event === 'topup.expired') expectTypeOf(event.data.status).toEqualTypeOf<'expired'>();
    expectTypeOf<WebhookEventOf<'refund.failed'>['data']['payment_id']>().toEqualTypeOf<string>();
  });

  it('generateTestHeader takes the payload and secret, and returns the header string', () => {
    expectTypeOf(generateTestHeader({ payload: '{}', secret: 'whsec_x' })).toEqualTypeOf<string>();
    // @ts-expect-error the secret is required
    generateTestHeader({ payload: '{}' });
  });
});

describe('operationError', () => {
  it('narrows the code once documented and status are checked', async () => {
    const client = createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u', sandbox: true });
    const failure = operationError('/payouts', 'post', await client.POST('/payouts', { body: {} as never }));
    if (failure?.documented && failure.status === 403) {
      expectTypeOf(failure.code).toEqualTypeOf<'insufficient_balance' | 'permission_denied'>();
    }
    if (failure?.documented && failure.status === 422) {
      expectTypeOf(failure.code).toEqualTypeOf<
        | 'wallet_not_found'
        | 'self_transfer'
        | 'unsupported_network'
        | 'invalid_iban_check_digits'
        | 'invalid_rib_key'
        | 'network_mismatch'
        | 'currency_not_accepted'
      >();
    }
    if (failure?.documented && failure.status === 400) {
      expectTypeOf(failure.code).toEqualTypeOf<components['schemas']['ErrorCode']>();
    }
    if (failure && !failure.documented) expectTypeOf(failure.code).toEqualTypeOf<string | undefined>();
    // The documented statuses are the operation's own: GET /payouts has no 403.
    expectTypeOf<DocumentedError<'/payouts', 'get'>['status']>().toEqualTypeOf<400 | 401 | 429 | 500 | 503>();
    // @ts-expect-error no such operation
    operationError('/payouts', 'patch', {} as never);
  });
});
