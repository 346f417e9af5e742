import { describe, expect, it } from 'vitest';
import {
  conditionsOf,
  logFilters,
  type PaymentQuery,
  paymentFilters,
  serviceFilters,
} from '../../server/storage/list-filters.js';

describe("a list's filters (server/storage/list-filters.ts)", () => {
  it('turns each whitelisted parameter into its condition, the values apart from the SQL', () => {
    expect(
      conditionsOf(paymentFilters, {
        status: 'failed',
        flow: 'hosted',
        created_gte: '2026-11-01T00:00:00Z',
        created_lt: '2026-12-01T00:00:00Z',
      }),
    ).toEqual([
      ['status = ?', 'failed'],
      ['flow = ?', 'hosted'],
      ['created_at >= ?', Date.UTC(2026, 10, 1)],
      ['created_at < ?', Date.UTC(2026, 11, 1)],
    ]);
  });

  it('lets nothing else reach SQL: paging, mode, empty values and names it does not know are no condition', () => {
    const query = {
      limit: 5,
      cursor: 'MTA',
      test: true,
      service_id: '',
      id: 'pay_1',
      "status = 'failed' OR 1": '1',
    } as PaymentQuery;
    expect(conditionsOf(paymentFilters, query)).toEqual([]);
  });

  it("a log's status class is its hundred codes; a status the validator left as text is a number", () => {
    expect(conditionsOf(logFilters, { status_class: '4xx', status: '404' as unknown as number })).toEqual([
      ['status = ?', 404],
      ['status >= ? AND status < ?', 400, 500],
    ]);
  });

  it('services: deleted ones are left out unless the query asks for a status', () => {
    expect(conditionsOf(serviceFilters, {})).toEqual([["status <> 'deleted'"]]);
    expect(conditionsOf(serviceFilters, { status: 'deleted' })).toEqual([['status = ?', 'deleted']]);
  });
});
