/**
 * The SQLite writer thread's program (started by writer.ts for `SqliteStore`): for each store it
 * serves it owns a write connection to that store's file, and runs the named units of work it is
 * sent (`server/units.ts` names them all), a batch at a time, each unit in its own savepoint
 * inside one transaction, and answers once the COMMIT is on disk. The statements, the COMMIT and
 * the disk sync that `synchronous = FULL` makes it wait for all happen here, while the event loop
 * of the main thread goes on serving requests (docs/decisions/0003-storage-boundary.md).
 *
 * One thread serves every store of its process: a server has one; a test process opens many, one
 * after the other, and would otherwise start a thread (and load its modules) for each.
 *
 * Messages in, each with the store's `id`: `open` (the file and its secrets key), `units` (a
 * batch; a store sends its next batch only after this one is answered) and `close`. Out, with
 * the same `id`: `outcomes` (one per unit, in order), `failed` when the transaction itself could
 * not begin or commit (nothing of the batch is stored), and `closed`.
 */
import { parentPort } from 'node:worker_threads';
import '../../units.js';
import type { Statement } from 'better-sqlite3';
import { repositories } from '../repositories/index.js';
import { createSecretBox } from '../secret-box.js';
import type { Tx } from '../store.js';
import { type ErrorData, errorToData, unitNamed } from '../unit.js';
import { sqliteConnection } from './connection.js';
import { type Db, openWriteConnection } from './database.js';

export interface UnitMessage {
  name: string;
  args: unknown;
}

export type UnitOutcome = { ok: true; value: unknown } | { ok: false; error: ErrorData };

export type WriterRequest =
  | { id: number; open: { path: string; secretsKey: Uint8Array } }
  | { id: number; units: UnitMessage[] }
  | { id: number; close: true };

export type WriterReply =
  | { id: number; outcomes: UnitOutcome[] }
  | { id: number; failed: ErrorData }
  | { id: number; closed: true };

interface Writer {
  db: Db;
  tx: Tx;
  begin: Statement;
  savepoint: Statement;
  release: Statement;
  rollbackTo: Statement;
  commit: Statement;
  rollback: Statement;
}

const port = parentPort;
if (!port) throw new Error('writer-thread.ts runs as a worker thread of SqliteStore');

/** The store's connection, or why it could not be opened (said to each of its batches). */
const writers = new Map<number, Writer | ErrorData>();

function open(path: string, secretsKey: Uint8Array): Writer {
  const db = openWriteConnection(path);
  return {
    db,
    tx: repositories(sqliteConnection(db), createSecretBox(Buffer.from(secretsKey))),
    begin: db.prepare('BEGIN IMMEDIATE'),
    savepoint: db.prepare('SAVEPOINT unit_of_work'),
    release: db.prepare('RELEASE unit_of_work'),
    rollbackTo: db.prepare('ROLLBACK TO unit_of_work'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
  };
}

async function runBatch(writer: Writer, units: UnitMessage[]): Promise<UnitOutcome[]> {
  const outcomes: UnitOutcome[] = [];
  try {
    writer.begin.run();
    for (const unit of units) {
      writer.savepoint.run();
      try {
        const value = await unitNamed(unit.name).run(writer.tx, unit.args);
        writer.release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        try {
          writer.rollbackTo.run();
          writer.release.run();
        } catch {
          // SQLite already rolled the whole transaction back (a full disk, an I/O error): the
          // batch fails with the unit's own error, which says what happened.
          throw error;
        }
        outcomes.push({ ok: false, error: errorToData(error) });
      }
    }
    writer.commit.run();
  } catch (error) {
    // BEGIN or COMMIT failed (locked, read-only, full disk): nothing of the batch is stored.
    try {
      if (writer.db.inTransaction) writer.rollback.run();
    } catch {
      // Said by the caller, which finds the transaction still open.
    }
    throw error;
  }
  return outcomes;
}

async function handle(request: WriterRequest): Promise<WriterReply | undefined> {
  const { id } = request;
  if ('open' in request) {
    try {
      writers.set(id, open(request.open.path, request.open.secretsKey));
    } catch (error) {
      writers.set(id, errorToData(error));
    }
    return undefined;
  }
  const writer = writers.get(id);
  if ('close' in request) {
    writers.delete(id);
    if (writer && 'db' in writer) writer.db.close();
    return { id, closed: true };
  }
  if (!writer) return { id, failed: errorToData(new Error(`no store ${id} is open on the writer thread`)) };
  if (!('db' in writer)) return { id, failed: writer };
  try {
    return { id, outcomes: await runBatch(writer, request.units) };
  } catch (error) {
    if (writer.db.inTransaction) {
      // Not even its ROLLBACK worked: the connection is given up, and the store's next batch
      // finds why (a new connection cannot be promised to work any better).
      writer.db.close();
      writers.set(id, errorToData(error));
    }
    return { id, failed: errorToData(error) };
  }
}

function answer(reply: WriterReply): void {
  try {
    port?.postMessage(reply);
  } catch (error) {
    // A result that cannot be copied (a function) is a programming error of its unit, which a
    // test of the unit shows. The batch is committed: the failure says so.
    const failed = errorToData(error);
    failed.message = `committed, but a result could not be sent back: ${failed.message}`;
    port?.postMessage({ id: reply.id, failed } satisfies WriterReply);
  }
}

// One request at a time, in the order sent: a batch's units await only statements that have
// already run, but nothing of another store's batch may start inside one.
let previous = Promise.resolve();
port.on('message', (request: WriterRequest) => {
  previous = previous.then(async () => {
    const reply = await handle(request);
    if (reply) answer(reply);
  });
});
