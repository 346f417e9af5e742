import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, ServiceRow } from '../rows.js';

export function servicesRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO services (id, account_id, mode, name, description, type, status, created_at, updated_at, deleted_at)
     VALUES (@id, @account_id, @mode, @name, @description, @type, @status, @created_at, @updated_at, @deleted_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM services WHERE id = ? AND account_id = ? AND mode = ?');
  const update = db.prepare(
    `UPDATE services SET name = @name, description = @description, type = @type, status = @status,
       updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
  );

  return {
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<ServiceRow, 'seq'>): ServiceRow {
      return insert.get(row) as ServiceRow;
    },
    get(accountId: string, mode: Mode, id: string): ServiceRow | undefined {
      return get.get(id, accountId, mode) as ServiceRow | undefined;
    },
    update(row: ServiceRow): void {
      update.run(row);
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<ServiceRow>(
        'services',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
  };
}
