/**
 * `paginate` over a real HTTP server on 127.0.0.1 that serves a list in pages linked by cursors.
 */
import { describe, expect, it } from 'vitest';
import { PaymentsApiError, paginate } from '../../client/src/index.js';
import { type Handler, pagedList as pagedListOf, sendError, useLocalServers } from './local-server.js';

const clientFor = useLocalServers();

const ids = ['pay_5', 'pay_4', 'pay_3', 'pay_2', 'pay_1'];

const pagedList: Handler = pagedListOf(ids);

describe('paginate', () => {
  it('yields every item of every page, in order, following next_cursor until has_more is false', async () => {
    const { client, requests } = await clientFor(pagedList);
    const seen: string[] = [];
    for await (const payment of paginate(client, '/payments', {
      params: { query: { limit: 2, status: 'success' } },
    })) {
      seen.push(payment.transaction_id);
    }

    expect(seen).toEqual(ids);
    expect(requests.map((r) => r.url)).toEqual([
      '/v1/payments?limit=2&status=success&test=true',
      '/v1/payments?limit=2&status=success&cursor=2&test=true',
      '/v1/payments?limit=2&status=success&cursor=4&test=true',
    ]);
  });

  it('asks for no more pages than it is iterated over', async () => {
    const { client, requests } = await clientFor(pagedList);
    for await (const payment of paginate(client, '/payments', { params: { query: { limit: 2 } } })) {
      if (payment.transaction_id === 'pay_4') break;
    }
    expect(requests).toHaveLength(1);
  });

  it('needs no options for a list without required parameters', async () => {
    const { client } = await clientFor(pagedList);
    const seen = [];
    for await (const service of paginate(client, '/services')) seen.push(service);
    expect(seen).toHaveLength(5);
  });

  it('follows the path parameters of nested lists', async () => {
    const { client, requests } = await clientFor(pagedList);
    const seen = [];
    const pages = paginate(client, '/events/{id}/deliveries', {
      params: { path: { id: 'evt_YvLIaWnufPjfE2zzW9C0854C' }, query: { limit: 3 } },
    });
    for await (const delivery of pages) seen.push(delivery);
    expect(seen).toHaveLength(5);
    expect(requests[1]?.url).toBe(
      '/v1/events/evt_YvLIaWnufPjfE2zzW9C0854C/deliveries?limit=3&cursor=3&test=true',
    );
  });

  it('throws a PaymentsApiError with the code and request id when a page fails, after the pages before it', async () => {
    let requestId = '';
    const { client } = await clientFor((request, res, index) => {
      if (index === 0) pagedList(request, res, index);
      else requestId = sendError(res, 429, 'rate_limited');
    });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const payment of paginate(client, '/payments', { params: { query: { limit: 2 } } })) {
        seen.push(payment.transaction_id);
      }
    })().catch((error: unknown) => error);

    expect(seen).toEqual(['pay_5', 'pay_4']);
    expect(failure).toBeInstanceOf(PaymentsApiError);
    expect(failure).toMatchObject({ status: 429, code: 'rate_limited', requestId });
    expect((failure as Error).message).toContain(requestId);
  });
});
