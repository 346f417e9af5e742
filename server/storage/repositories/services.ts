import { conditionsOf, type ServiceQuery, serviceFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { Mode, ServiceRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';
import { rowInserter } from './insert-row.js';

export function servicesRepository(connection: SqlConnection, page: Pager) {
  const insert = rowInserter<ServiceRow>(
    connection,
    'services',
    'id, account_id, mode, name, description, type, status, created_at, updated_at, deleted_at',
  );
  const get = connection.prepare<ServiceRow>(
    'SELECT * FROM services WHERE id = ? AND account_id = ? AND mode = ?',
  );
  const update = connection.prepare(
    `UPDATE services SET name = @name, description = @description, type = @type, status = @status,
       updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
  );

  return {
    /** Inserts the row and returns it as stored. */
    async insert(row: Omit<ServiceRow, 'seq'>): Promise<ServiceRow> {
      return insert(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<ServiceRow | undefined> {
      return get.get(id, accountId, mode);
    },
    async update(row: ServiceRow): Promise<void> {
      await update.run({ ...row });
    },
    /** A page of an account's services in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: ServiceQuery, request: PageRequest) {
      return page<ServiceRow>(
        'services',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(serviceFilters, query)],
        request,
      );
    },
  };
}
