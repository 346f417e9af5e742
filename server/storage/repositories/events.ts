import { conditionsOf, type EventQuery, eventFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { EventRow, Mode } from '../rows.js';
import type { SqlConnection } from '../sql.js';

/** Events: what happened to a movement, as its webhook deliveries announce it (deliveries.ts). */
export function eventsRepository(connection: SqlConnection, page: Pager) {
  const insert = connection.prepare(
    `INSERT INTO events (id, account_id, mode, event, transaction_id, payload, created_at)
     VALUES (@id, @account_id, @mode, @event, @transaction_id, @payload, @created_at)`,
  );
  const get = connection.prepare<EventRow>(
    'SELECT * FROM events WHERE id = ? AND account_id = ? AND mode = ?',
  );
  const byId = connection.prepare<EventRow>('SELECT * FROM events WHERE id = ?');

  return {
    async insert(row: Omit<EventRow, 'seq'>): Promise<void> {
      await insert.run(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
      return get.get(id, accountId, mode);
    },
    async byId(id: string): Promise<EventRow | undefined> {
      return byId.get(id);
    },
    /** A page of an account's events in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: EventQuery, request: PageRequest) {
      return page<EventRow>(
        'events',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(eventFilters, query)],
        request,
      );
    },
  };
}
