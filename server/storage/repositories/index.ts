import { createPager } from '../pagination.js';
import type { SecretBox } from '../secret-box.js';
import type { SqlConnection } from '../sql.js';
import { accountsRepository } from './accounts.js';
import { bankBatchesRepository } from './bank-batches.js';
import { dashboardRepository } from './dashboard.js';
import { deliveriesRepository } from './deliveries.js';
import { eventsRepository } from './events.js';
import { idempotencyRepository } from './idempotency.js';
import { ledgerRepository } from './ledger.js';
import { logsRepository } from './logs.js';
import { paymentsRepository } from './payments.js';
import { payoutsRepository } from './payouts.js';
import { servicesRepository } from './services.js';
import { topupsRepository } from './topups.js';
import { endpointsRepository } from './webhook-endpoints.js';

/**
 * Every repository on one connection, their statements prepared once. A store builds this per
 * connection it hands to a unit of work, whichever the engine. `onKeysChanged` is told when the
 * unit updates an API key (PostgreSQL's store then moves its key version after the commit).
 *
 * @example
 * const tx = repositories(sqliteConnection(db), box);
 * const account = await tx.accounts.account('acc_123');
 */
export function repositories(connection: SqlConnection, box: SecretBox, onKeysChanged?: () => void) {
  const page = createPager(connection);
  return {
    accounts: accountsRepository(connection, page, onKeysChanged),
    ledger: ledgerRepository(connection, page),
    services: servicesRepository(connection, page),
    payments: paymentsRepository(connection, page),
    payouts: payoutsRepository(connection, page),
    bankBatches: bankBatchesRepository(connection),
    topups: topupsRepository(connection, page),
    events: eventsRepository(connection, page),
    endpoints: endpointsRepository(connection, page, box),
    deliveries: deliveriesRepository(connection, page),
    idempotency: idempotencyRepository(connection),
    logs: logsRepository(connection, page),
    dashboard: dashboardRepository(connection, page, box),
  };
}

/** The repositories, usable inside one transaction (`Store.transact`) or one read (`Store.read`). */
export type Tx = ReturnType<typeof repositories>;
