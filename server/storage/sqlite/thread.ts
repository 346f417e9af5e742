import { Worker } from 'node:worker_threads';
import type { Role, ThreadReply, ThreadRequest, UnitMessage } from './thread-program.js';

/** Where a store's thread connection goes: its file, and the key its secrets are sealed with. */
export interface ThreadOptions {
  path: string;
  secretsKey: Uint8Array;
}

type Request = { units: UnitMessage[] } | { read: UnitMessage } | { close: true };

interface Waiting {
  resolve: (reply: ThreadReply) => void;
  reject: (error: unknown) => void;
}

/** A role's worker, shared by the stores of the process, and what it has been asked. */
interface Shared {
  worker: Worker | undefined;
  /** The stores connected through it, so a new worker (after one died) opens them again. */
  open: Map<number, ThreadOptions>;
  waiting: Map<number, Waiting>;
}

const shared: Record<Role, Shared> = {
  writer: { worker: undefined, open: new Map(), waiting: new Map() },
  reader: { worker: undefined, open: new Map(), waiting: new Map() },
};
let nextId = 1;
let nextSeq = 1;

/**
 * One store's connection on the SQLite writer thread or reader thread (thread-program.ts): sends
 * it a batch of named units, or a named read, and resolves with the thread's answer.
 *
 * Each role has one thread for all the stores of the process (a server has one store; the tests
 * open many): it starts with the first and stays, and keeps the process alive only while it is
 * asked something, so a process that is done exits, and never in the middle of a batch. A thread
 * that dies fails what it was asked; the next request starts another, which opens the
 * connections of the stores still open.
 */
export class SqliteThread {
  readonly #shared: Shared;
  readonly #id = nextId++;
  #closed: Promise<void> | undefined;

  constructor(
    readonly role: Role,
    options: ThreadOptions,
  ) {
    this.#shared = shared[role];
    this.#shared.open.set(this.#id, options);
    post(this.#shared, role, { id: this.#id, open: options });
  }

  /** Writer: runs the units as one transaction; answers one outcome per unit, or why none committed. */
  runBatch(units: UnitMessage[]): Promise<ThreadReply> {
    return this.#ask({ units });
  }

  /** Reader: runs one unit on one snapshot of committed data; answers its outcome. */
  read(unit: UnitMessage): Promise<ThreadReply> {
    return this.#ask({ read: unit });
  }

  /** Closes this store's connection on the thread (the thread stays for the others). */
  stop(): Promise<void> {
    this.#closed ??= this.#ask({ close: true }).then(
      () => void this.#shared.open.delete(this.#id),
      () => void this.#shared.open.delete(this.#id),
    );
    return this.#closed;
  }

  #ask(request: Request): Promise<ThreadReply> {
    const seq = nextSeq++;
    return new Promise<ThreadReply>((resolve, reject) => {
      // Throws (DataCloneError) before anything is sent when an argument cannot be copied.
      post(this.#shared, this.role, { id: this.#id, seq, ...request } as ThreadRequest);
      if (this.#shared.waiting.size === 0) this.#shared.worker?.ref();
      this.#shared.waiting.set(seq, { resolve, reject });
    });
  }
}

function post(pool: Shared, role: Role, request: ThreadRequest): void {
  (pool.worker ?? start(pool, role)).postMessage(request);
}

function start(pool: Shared, role: Role): Worker {
  const worker = startThread(role);
  worker.unref();
  pool.worker = worker;
  // A new thread after one died: it opens the connections of the stores still open.
  for (const [id, options] of pool.open) worker.postMessage({ id, open: options } satisfies ThreadRequest);
  worker.on('message', (reply: ThreadReply) => {
    const waiting = pool.waiting.get(reply.seq);
    if (!waiting) return;
    pool.waiting.delete(reply.seq);
    if (pool.waiting.size === 0) worker.unref();
    waiting.resolve(reply);
  });
  const ended = (error: Error) => {
    if (pool.worker !== worker) return;
    pool.worker = undefined;
    const waiting = [...pool.waiting.values()];
    pool.waiting.clear();
    for (const { reject } of waiting) reject(error);
  };
  worker.on('error', (cause) => ended(threadEnded(role, `threw: ${cause.message}`, cause)));
  worker.on('exit', (code) => ended(threadEnded(role, `exit code ${code}`)));
  return worker;
}

/**
 * What the callers of a thread that died are told, however it died: a 503 that changed nothing
 * they can be sure of, so they retry (with their Idempotency-Key, a unit it did commit replays).
 */
export function threadEnded(role: Role, how: string, cause?: unknown): Error {
  return Object.assign(new Error(`the SQLite ${role} thread ended (${how})`, { cause }), {
    code: 'SQLITE_THREAD_ENDED',
  });
}

/**
 * Starts the thread's program, the file beside this one: compiled JavaScript under `npm start`;
 * TypeScript under tsx and the tests, where the thread registers tsx's loader first (a worker
 * does not inherit a loader that a test runner set up in its own way, nor `--import tsx` on
 * Node 20).
 */
function startThread(role: Role): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./thread-program.js', import.meta.url), { workerData: role });
  }
  const file = new URL('./thread-program.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`;
  return new Worker(boot, { eval: true, workerData: role });
}
