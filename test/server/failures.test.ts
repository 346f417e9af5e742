import { describe, expect, it } from 'vitest';
import type { MobileMoneyOperator } from '../../server/operators/operator.js';
import { createService, sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer({ LOG_RETENTION_DAYS: '30' });

describe('when something breaks inside the server', () => {
  it('an unexpected error is a plain 500 in the envelope: no message, stack or SQL of it', async () => {
    const { store } = server.service.deps;
    const failing = async () => {
      throw new Error('SQLITE internal detail: SELECT secret FROM keys /work/main/server/storage');
    };
    Object.defineProperty(store, 'read', { value: failing, configurable: true });
    try {
      const response = await server.raw('GET', '/balance/transactions');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        status: 'error',
        error: {
          code: 'internal_error',
          message: 'Something went wrong on our side. Nothing is shown of it here.',
          request_id: response.headers.get('x-request-id'),
        },
      });
      expect(response.text).not.toMatch(/SQLITE|SELECT|storage|at /);
    } finally {
      Reflect.deleteProperty(store, 'read');
    }
    expect((await server.raw('GET', '/balance/transactions')).status).toBe(200);
  });

  it('an operator that fails to take the request after the payment is committed does not fail the call', async () => {
    const serviceId = await createService(server);
    const { operators } = server.service.deps;
    const sandboxOperator = operators.test;
    const unreachable: MobileMoneyOperator = {
      ...sandboxOperator,
      requestToPay: async () => {
        throw new Error('connect ETIMEDOUT operator');
      },
    };
    operators.test = unreachable;
    let paymentId: string;
    try {
      const response = await server.raw('POST', '/payments', {
        body: {
          amount: 900,
          currency: 'XAF',
          customer_msisdn: sandbox.mtn.succeeds,
          payment_method: 'mtn_momo',
          service_id: serviceId,
        },
      });
      expect(response.status).toBe(202);
      paymentId = response.body.data.transaction_id;
    } finally {
      operators.test = sandboxOperator;
    }
    // The status check settles what the request could not hand over.
    await server.settle();
    expect((await server.raw('GET', `/payments/${paymentId}`)).body.data.status).toBe('success');
  });
});

describe('call log retention', () => {
  it('calls older than LOG_RETENTION_DAYS are purged', async () => {
    const old = await server.raw('GET', '/balance');
    await server.flushLogs();
    server.clock.advance(31 * 86_400_000);
    await server.raw('GET', '/balance');
    await server.flushLogs();
    await server.purgeExpired();
    const logs = await server.raw('GET', '/logs', {
      query: { request_id: old.headers.get('x-request-id') as string },
    });
    expect(logs.body.data.items).toEqual([]);
    const recent = await server.raw('GET', '/logs', { query: { limit: 5 } });
    expect(recent.body.data.items.length).toBeGreaterThan(0);
  });
});
