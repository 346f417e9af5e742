/**
 * The program of the SQLite store's two threads (started by thread.ts): the writer thread runs
 * the named units of work (`Store.run`, `Store.runSoon`) and the reader thread the named reads
 * (`Store.view`), each on connections of its own, so the statements, and the writer's COMMIT
 * with the disk sync `synchronous = FULL` makes it wait for, do not stop the event loop of the
 * main thread (docs/decisions/0021-one-write-path.md). A unit names its module, which the thread
 * imports the first time it meets one of its units.
 *
 * One writer thread and one reader thread serve every store of their process: a server has one
 * store; a test process opens hundreds, and would otherwise start threads (and load their
 * modules) for each.
 *
 * Messages in carry the store's `id`: `open` (the file and its secrets key; a write connection on
 * the writer, a read-only one on the reader), then, with a `seq` the answer repeats: `units` (a
 * batch, writer: each unit in its own savepoint inside one transaction, answered once the COMMIT
 * is on disk; the store may send the next batch while this one runs, and the thread takes them
 * in the order sent), `read` (reader: one unit on one snapshot of committed data) and `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import { repositories } from '../repositories/index.js';
import { createSecretBox } from '../secret-box.js';
import type { Tx } from '../store.js';
import { type Definition, type ErrorData, errorToData, findUnit, type Unit } from '../unit.js';
import { sqliteConnection } from './connection.js';
import { type Db, openReadConnection, openWriteConnection } from './database.js';
import { type GroupCommit, groupCommit, runGroup } from './group-commit.js';

export type Role = 'writer' | 'reader';

export interface UnitMessage extends Definition {
  args: unknown;
}

export type UnitOutcome = { ok: true; value: unknown } | { ok: false; error: ErrorData };

export type ThreadRequest =
  | { id: number; open: { path: string; secretsKey: Uint8Array } }
  | { id: number; seq: number; units: UnitMessage[] }
  | { id: number; seq: number; read: UnitMessage }
  | { id: number; seq: number; close: true };

export type ThreadReply =
  | { seq: number; outcomes: UnitOutcome[] }
  | { seq: number; outcome: UnitOutcome }
  | { seq: number; failed: ErrorData }
  | { seq: number; closed: true };

/** A store's connection: a write one with its group commit, or a read-only one with its snapshot. */
type Connection =
  | { db: Db; tx: Tx; group: GroupCommit }
  | { db: Db; tx: Tx; snapshot: { begin: Statement; end: Statement } };

const port = parentPort;
if (!port) throw new Error('thread-program.ts runs as a worker thread of SqliteStore');
const role = workerData as Role;

/** Each store's connection, or why it could not be opened (said to each of its requests). */
const connections = new Map<number, Connection | ErrorData>();

function open(path: string, secretsKey: Uint8Array): Connection {
  const db = role === 'writer' ? openWriteConnection(path) : openReadConnection(path);
  const tx = repositories(sqliteConnection(db), createSecretBox(Buffer.from(secretsKey)));
  if (role === 'writer') return { db, tx, group: groupCommit(db) };
  return { db, tx, snapshot: { begin: db.prepare('BEGIN'), end: db.prepare('COMMIT') } };
}

const toData = (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): UnitOutcome =>
  outcome.ok ? outcome : { ok: false, error: errorToData(outcome.error) };

async function runBatch(connection: Connection, units: UnitMessage[]): Promise<UnitOutcome[]> {
  if (!('group' in connection)) throw new Error('a batch of writes was sent to the reader thread');
  // Found (their modules imported) before the transaction, not while it holds the write lock.
  const found = await Promise.all(units.map((unit) => findUnit(unit).catch((error: unknown) => error)));
  const outcomes = await runGroup(connection.group, units, (unit, i) => {
    const definition = found[i];
    if (definition instanceof Error || !definition) throw definition;
    return (definition as Unit<unknown, unknown>).run(connection.tx, unit.args);
  });
  return outcomes.map(toData);
}

async function runRead(connection: Connection, read: UnitMessage): Promise<UnitOutcome> {
  if (!('snapshot' in connection)) throw new Error('a read was sent to the writer thread');
  let unit: Unit<unknown, unknown>;
  try {
    unit = await findUnit(read);
  } catch (error) {
    return toData({ ok: false, error });
  }
  connection.snapshot.begin.run();
  try {
    return { ok: true, value: await unit.run(connection.tx, read.args) };
  } catch (error) {
    return toData({ ok: false, error });
  } finally {
    connection.snapshot.end.run();
  }
}

async function handle(request: ThreadRequest): Promise<ThreadReply | undefined> {
  const { id } = request;
  if ('open' in request) {
    try {
      connections.set(id, open(request.open.path, request.open.secretsKey));
    } catch (error) {
      connections.set(id, errorToData(error));
    }
    return undefined;
  }
  const { seq } = request;
  const connection = connections.get(id);
  if ('close' in request) {
    connections.delete(id);
    if (connection && 'db' in connection) connection.db.close();
    return { seq, closed: true };
  }
  if (!connection) return { seq, failed: errorToData(new Error(`no store ${id} is open on this thread`)) };
  if (!('db' in connection)) return { seq, failed: connection };
  try {
    if ('read' in request) return { seq, outcome: await runRead(connection, request.read) };
    return { seq, outcomes: await runBatch(connection, request.units) };
  } catch (error) {
    if (connection.db.inTransaction) {
      // Not even its ROLLBACK worked: the connection is given up, and the store's next request
      // finds why (a new connection cannot be promised to work any better).
      connection.db.close();
      connections.set(id, errorToData(error));
    }
    return { seq, failed: errorToData(error) };
  }
}

function answer(reply: ThreadReply): void {
  try {
    port?.postMessage(reply);
  } catch (error) {
    // A result that cannot be copied (a function) is a programming error of its unit, which a
    // test of the unit shows. A batch is committed all the same: the failure says so.
    const failed = errorToData(error);
    failed.message = `${'outcomes' in reply ? 'committed, but ' : ''}a result could not be sent back: ${failed.message}`;
    port?.postMessage({ seq: reply.seq, failed } satisfies ThreadReply);
  }
}

// One request at a time, in the order sent: a unit awaits only statements that have already
// run, but nothing of another store's request may start inside one.
let previous = Promise.resolve();
port.on('message', (request: ThreadRequest) => {
  previous = previous.then(async () => {
    const reply = await handle(request);
    if (reply) answer(reply);
  });
});
