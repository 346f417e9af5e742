import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { convertPlaceholders } from '../../server/storage/postgres/connection.js';
import { onFreePort } from './ports.js';

const run = promisify(execFile);

/** A throwaway PostgreSQL server for one test file, reachable on 127.0.0.1 only. */
export interface PostgresCluster {
  /** The URL of a database on this cluster. */
  url(database: string): string;
  /** The temporary folder of its files and socket (deleted by `stop`). */
  folder: string;
  /** Creates an empty, uniquely named database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server at once and deletes its files. */
  stop(): Promise<void>;
  /**
   * `pg_ctl stop -m immediate`: the server goes away at once, as in a crash (every connection
   * cut, nothing flushed beyond what commits already made durable); its files stay.
   */
  pause(): Promise<void>;
  /** Starts the paused server again on the same files and port (crash recovery runs first). */
  resume(): Promise<void>;
}

/**
 * Starts a PostgreSQL cluster of its own in a temporary folder with Debian's binaries (the
 * newest version under /usr/lib/postgresql): `initdb` with trust authentication for `postgres`,
 * then `pg_ctl start` on a free port of 127.0.0.1 with its socket inside the folder. fsync stays
 * on, so the guarantees tested are the ones a real server gives; `--no-sync` only skips syncing
 * the freshly written template files.
 *
 * PostgreSQL refuses to run as root: when the tests do, the folder is handed to the `postgres`
 * system user (created by Debian's package) and initdb and pg_ctl run through `runuser`.
 *
 * @example
 * const cluster = await startPostgresCluster();
 * const url = await cluster.createDatabase();
 * // ...
 * await cluster.stop();
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const owner = await postgresUser();
    chownSync(folder, owner.uid, owner.gid);
  }
  // The command line of a PostgreSQL program, as the postgres user when the tests run as root.
  const commandLine = (command: string, args: string[]) =>
    asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, command), ...args] : [join(bin, command), ...args];
  const postgresCommand = (command: string, args: string[]) => {
    const [file, ...rest] = commandLine(command, args);
    return run(file as string, rest);
  };
  const pgCtlStop = ['stop', '-D', data, '-m', 'immediate', '-w'];

  // Chosen by onFreePort below: a port taken between its choice and the bind (two suites start
  // clusters side by side) makes pg_ctl fail with "could not bind", and another is tried.
  let port = 0;
  const log = join(folder, 'log');
  const pgCtlStart = () =>
    postgresCommand('pg_ctl', [
      'start',
      '-D',
      data,
      '-w',
      '-t',
      '60',
      '-l',
      log,
      '-o',
      [
        `-p ${port}`,
        '-c listen_addresses=127.0.0.1',
        `-c unix_socket_directories=${folder}`,
        '-c max_connections=200',
      ].join(' '),
    ]);
  try {
    await postgresCommand('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    await onFreePort(
      async (candidate) => {
        port = candidate;
        await pgCtlStart();
      },
      () => existsSync(log) && /could not bind|Address already in use/.test(readFileSync(log, 'utf8')),
    );
  } catch (error) {
    const detail = existsSync(log) ? `\n${readFileSync(log, 'utf8')}` : '';
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`could not start a PostgreSQL test cluster: ${(error as Error).message}${detail}`, {
      cause: error,
    });
  }

  const watchdog = stopWhenGone(process.pid, folder, commandLine('pg_ctl', pgCtlStop));
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let created = 0;
  return {
    url,
    folder,
    async createDatabase() {
      created += 1;
      return createTestDatabase(url('postgres'), `test_${process.pid}_${created}`);
    },
    async pause() {
      await postgresCommand('pg_ctl', pgCtlStop);
    },
    async resume() {
      await pgCtlStart();
    },
    async stop() {
      watchdog.kill('SIGKILL');
      try {
        await postgresCommand('pg_ctl', pgCtlStop);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A process of its own (its own process group, not waited for) that stops the cluster and
 * deletes its folder once `owner` has ended without doing so: a test run killed with SIGKILL
 * runs no teardown (npm test stops the other stages of a failed run that way), and the server
 * would stay, listening and holding its memory, until the machine restarts.
 */
function stopWhenGone(owner: number, folder: string, stopCommand: string[]) {
  const script =
    'owner=$1; folder=$2; shift 2; while kill -0 "$owner" 2>/dev/null; do sleep 1; done; ' +
    '"$@" >/dev/null 2>&1; rm -rf "$folder"';
  const child = spawn('sh', ['-c', script, 'postgres-watchdog', String(owner), folder, ...stopCommand], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child;
}

/** The bin folder of the newest PostgreSQL installed the Debian way. */
function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL under ${root}: install the postgresql package`);
  return join(root, versions[0] as string, 'bin');
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Creates a uniquely named database on the cluster of `adminUrl` (its `postgres` database) and
 * returns its URL; copied from `template` when given (a migrated template: no migration to run).
 *
 * @example
 * const url = await createTestDatabase(process.env.TEST_POSTGRES_URL, 'test', 'payments_template');
 */
export async function createTestDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The rows of one statement on the database of `url`, through a client of its own (closed
 * afterwards). `?` placeholders are converted as the server's PostgreSQL connection converts
 * them; `$n` ones are left as written.
 *
 * @example
 * const [row] = await queryPostgres<{ n: number }>(url, 'SELECT COUNT(*) AS n FROM payments WHERE status = ?', ['success']);
 */
export async function queryPostgres<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(convertPlaceholders(sql).text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
