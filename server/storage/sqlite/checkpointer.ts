import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the WAL back into the database file on a thread of its own, so the event loop never
 * waits for it (docs/performance.md).
 *
 * Without it SQLite checkpoints inside the COMMIT that takes the WAL past its automatic
 * checkpoint's size: under a steady POST load, often, each time writing those pages into the
 * database file and syncing it while the whole event loop waits. Here a
 * worker thread with its own connection runs a PASSIVE checkpoint (it never blocks a writer or a
 * reader) shortly after commits, so by the time the writer's own automatic checkpoint comes due,
 * nearly every page is already in the file and that checkpoint only syncs what is left. The
 * writer's automatic checkpoint stays as it is: if this thread falls behind, fails or is gone,
 * the WAL is still bounded exactly as before.
 *
 * The writer signals commits through shared memory (an atomic counter and a wake-up, no
 * message per commit); the thread sleeps while nothing is committed.
 */
export interface Checkpointer {
  /** Tells the thread a commit added frames to the WAL. Cheap: called after every batch. */
  committed(): void;
  /** Stops the thread once its current checkpoint ends. */
  stop(): Promise<void>;
}

export interface CheckpointFailure {
  /** SQLite's code (SQLITE_FULL, SQLITE_READONLY, ...), or CHECKPOINTER_ERROR when the thread itself failed. */
  code: string;
  message: string;
}

/**
 * How long after a commit the thread checkpoints: the commits of that moment share one
 * checkpoint. A shorter wait cost more CPU per POST (docs/performance.md).
 */
const gatherMs = 20;

/** Slots of the shared Int32Array. */
const COMMITS = 0;
const STOP = 1;

/**
 * The thread's program, plain CommonJS evaluated by the worker (`eval: true`): it runs the same
 * way under the compiled server and under a TypeScript loader, which a worker file would not.
 */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const flags = new Int32Array(workerData.flags);
const say = (err) => parentPort.postMessage({ code: String(err && (err.code || err.name)), message: String(err && err.message) });
let db;
let checkpoint;
try {
  db = new Database(workerData.path, { fileMustExist: true });
  checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
} catch (err) {
  say(err);
  Atomics.store(flags, ${STOP}, 1);
}
// From 0: commits made while the thread was starting count too.
let seen = 0;
let lastFailure = '';
while (Atomics.load(flags, ${STOP}) === 0) {
  if (Atomics.wait(flags, ${COMMITS}, seen, 1000) === 'timed-out') continue;
  // Let the commits of a moment gather: one checkpoint (one sync of the file) for several.
  Atomics.wait(flags, ${STOP}, 0, ${gatherMs});
  seen = Atomics.load(flags, ${COMMITS});
  try {
    checkpoint.run();
    lastFailure = '';
  } catch (err) {
    // A full disk, a read-only file: said once per kind, then retried on the next commit.
    const failure = String(err && (err.code || err.name));
    if (failure !== lastFailure) say(err);
    lastFailure = failure;
  }
}
if (db) db.close();
`;

/**
 * Starts the checkpoint thread on the database file at `path` (in WAL mode, already migrated).
 *
 * @param onFailure told when a checkpoint fails (once per kind of failure in a row)
 */
export function startCheckpointer(
  path: string,
  onFailure: (failure: CheckpointFailure) => void,
): Checkpointer {
  const flags = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(threadSource, {
    eval: true,
    workerData: { path, flags: flags.buffer, driver },
    // Nothing of the parent's loader or flags: the program is plain JavaScript.
    execArgv: [],
  });
  // It must never keep the process alive, nor take it down.
  worker.unref();
  worker.on('message', onFailure);
  // Only what the program does not catch itself (it reports its own SQLite errors).
  worker.on('error', (err) =>
    onFailure({ code: 'CHECKPOINTER_ERROR', message: String(err?.message ?? err) }),
  );
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    committed() {
      Atomics.add(flags, COMMITS, 1);
      Atomics.notify(flags, COMMITS);
    },
    async stop() {
      Atomics.store(flags, STOP, 1);
      Atomics.notify(flags, COMMITS);
      Atomics.notify(flags, STOP);
      // Held alive until the thread has ended: unreferenced, a process with nothing else to do
      // (a server whose listener has closed, at SIGTERM) could exit first, and the store's
      // close would never get to closing its own connections (the WAL and its index were left
      // beside the file).
      worker.ref();
      await exited;
    },
  };
}
