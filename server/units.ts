/**
 * Every module that defines a named unit of work or a rendering (server/storage/unit.ts). The
 * SQLite writer and reader threads import this file and so know each of them by name; a module
 * that defines one and is not listed here makes the threads refuse it ("no unit of work named").
 */
import './domain/lists.js';
import './domain/logs.js';
import './domain/payments.js';
import './domain/retention.js';
import './domain/settlement.js';
import './domain/transaction.js';
import './http/renderings.js';
import './webhooks/outbox.js';
