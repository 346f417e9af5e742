/**
 * What every fault test file sets up the same way: the run's seed (`FAULTS_SEED` replays one),
 * a temporary folder, the servers and receivers it starts, stopped when the file ends, and, for
 * the PostgreSQL-only files, a throwaway cluster of the file's own.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ChildServer } from '../../support/child-server.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres.js';
import { internalErrors, seededRandom, tempFolder } from './load.js';

/** The run's seed: every random choice of a fault test derives from it, and its report prints it. */
export const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);

/** A sequence of random numbers in [0, 1) from the run's seed (`offset` gives another one). */
export const random = (offset = 0) => seededRandom(seed + offset);

export interface FaultFile {
  /** The file's temporary folder (SQLite files, unused paths), removed at its end. */
  dir: string;
  /** Every server the file started, in order. */
  servers: ChildServer[];
  /** Notes a started server: it is stopped when the file ends. */
  track<T extends ChildServer>(server: T): T;
  /** Notes something to close when the file ends, after the servers stopped (a receiver, a cluster). */
  closeAtEnd(closable: { close(): Promise<unknown> | unknown }): void;
  /** 5xx answers other than the documented 503 of every server the file started. */
  internalErrors(): ReturnType<typeof internalErrors>;
}

/**
 * The file's folder, and an `afterAll` that stops its servers, then closes what `closeAtEnd`
 * noted (in that order: a cluster must outlive the instances on it), then removes the folder.
 */
export function faultFile(prefix: string): FaultFile {
  const folder = tempFolder(prefix);
  const servers: ChildServer[] = [];
  const closables: Array<{ close(): Promise<unknown> | unknown }> = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const closable of closables) await closable.close();
    folder.remove();
  }, 60_000);
  return {
    dir: folder.dir,
    servers,
    track(server) {
      servers.push(server);
      return server;
    },
    closeAtEnd(closable) {
      closables.push(closable);
    },
    internalErrors: () => internalErrors(servers),
  };
}

export type PostgresFaultFile = FaultFile & { cluster(): PostgresCluster };

/** `faultFile`, and a PostgreSQL cluster of the file's own, started before its first test. */
export function postgresFaultFile(prefix: string): PostgresFaultFile {
  const file = faultFile(prefix);
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    file.closeAtEnd({ close: () => cluster?.stop() });
  }, 120_000);
  return {
    ...file,
    cluster: () => {
      if (!cluster) throw new Error('the cluster is not started yet');
      return cluster;
    },
  };
}

/**
 * The one set-up of a file whose tests each check a promise on what it recorded: runs `setUp`
 * before the first test, copies what it returns into `run`, and logs `summary` with its duration.
 */
export function recordOnce<T extends object>(
  run: T,
  setUp: () => Promise<T>,
  summary: (run: T) => string,
  timeoutMs: number,
): void {
  beforeAll(async () => {
    const started = Date.now();
    Object.assign(run, await setUp());
    console.info(`${summary(run)}; whole set-up ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, timeoutMs);
}
