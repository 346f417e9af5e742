import { Worker } from 'node:worker_threads';
import type { UnitMessage, WriterReply, WriterRequest } from './writer-thread.js';

/** Where the writer thread writes for one store: its file, and the key its secrets are sealed with. */
export interface WriterOptions {
  path: string;
  secretsKey: Uint8Array;
}

type Answer = Exclude<WriterReply, { closed: true }>;

interface Waiting {
  resolve: (reply: Answer | { id: number; closed: true }) => void;
  reject: (error: unknown) => void;
}

/**
 * The main thread's side of the SQLite writer thread (writer-thread.ts), for one store: sends it
 * a batch of named units and resolves with its answer, one batch at a time (`SqliteStore` sends
 * the next only after this one was answered).
 *
 * The thread is shared by the stores of the process (a server has one; the tests open many): it
 * starts with the first and stays, and it keeps the process alive only while a batch is running,
 * so a process that is done exits, and never in the middle of a batch. A thread that dies (an
 * error it could not answer) fails the batches it was running; the next batch starts another,
 * which opens the connections of the stores still open.
 */
export class WriterThread {
  static #worker: Worker | undefined;
  static #nextId = 1;
  static readonly #open = new Map<number, { options: WriterOptions; waiting: Waiting | undefined }>();
  static #running = 0;

  readonly #id = WriterThread.#nextId++;
  #closed = false;

  constructor(options: WriterOptions) {
    WriterThread.#open.set(this.#id, { options, waiting: undefined });
    WriterThread.#post({ id: this.#id, open: options });
  }

  /** Runs the units as one transaction on the thread; resolves with one outcome per unit. */
  send(units: UnitMessage[]): Promise<Answer> {
    return this.#ask({ id: this.#id, units }) as Promise<Answer>;
  }

  /** Closes this store's connection on the thread (the thread stays for the others). */
  async stop(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#ask({ id: this.#id, close: true });
    } finally {
      WriterThread.#open.delete(this.#id);
    }
  }

  #ask(request: WriterRequest): Promise<WriterReply> {
    const entry = WriterThread.#open.get(this.#id);
    if (!entry || entry.waiting)
      return Promise.reject(new Error('the writer thread runs one batch of a store at a time'));
    return new Promise<WriterReply>((resolve, reject) => {
      // Throws (DataCloneError) before anything is sent when an argument cannot be copied.
      WriterThread.#post(request);
      entry.waiting = { resolve, reject };
      if (WriterThread.#running++ === 0) WriterThread.#worker?.ref();
    });
  }

  static #post(request: WriterRequest): void {
    const worker = WriterThread.#worker ?? WriterThread.#start();
    worker.postMessage(request);
  }

  static #start(): Worker {
    const worker = startThread();
    worker.unref();
    WriterThread.#worker = worker;
    // A new thread after one died: it opens the connections of the stores still open.
    for (const [id, { options }] of WriterThread.#open)
      worker.postMessage({ id, open: options } satisfies WriterRequest);
    worker.on('message', (reply: WriterReply) => {
      const entry = WriterThread.#open.get(reply.id);
      const waiting = entry?.waiting;
      if (!entry || !waiting) return;
      entry.waiting = undefined;
      WriterThread.#settled();
      waiting.resolve(reply);
    });
    const ended = (error: unknown) => {
      if (WriterThread.#worker !== worker) return;
      WriterThread.#worker = undefined;
      for (const entry of WriterThread.#open.values()) {
        const waiting = entry.waiting;
        entry.waiting = undefined;
        if (!waiting) continue;
        WriterThread.#settled();
        waiting.reject(error);
      }
    };
    worker.on('error', ended);
    worker.on('exit', (code) => ended(threadEnded(code)));
    return worker;
  }

  static #settled(): void {
    if (--WriterThread.#running === 0) WriterThread.#worker?.unref();
  }
}

function threadEnded(code: number): Error {
  return Object.assign(new Error(`the SQLite writer thread ended (exit code ${code})`), {
    code: 'SQLITE_WRITER_THREAD_ENDED',
  });
}

/**
 * Starts the thread's program, the file beside this one: compiled JavaScript under `npm start`;
 * TypeScript under tsx and the tests, where the thread registers tsx's loader first (a worker
 * does not inherit a loader that a test runner set up in its own way, nor `--import tsx` on
 * Node 20).
 */
function startThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./writer-thread.js', import.meta.url));
  const file = new URL('./writer-thread.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`;
  return new Worker(boot, { eval: true });
}
