/**
 * A PostgreSQL test cluster does not outlive the process that started it: a run killed with
 * SIGKILL (npm test stops the other stages of a failed run that way) runs no teardown, and the
 * server would otherwise stay up, listening on 127.0.0.1, until the machine restarts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const owner = fileURLToPath(new URL('../fixtures/postgres/cluster-owner.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Whether something accepts a TCP connection on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('a PostgreSQL test cluster whose owner is killed', () => {
  it('is stopped and its folder deleted within seconds', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', owner], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('exit', (code) => reject(new Error(`the owner ended (${code}) before starting a cluster`)));
    });
    try {
      const { port, folder } = JSON.parse(line) as { port: number; folder: string };
      expect(existsSync(folder)).toBe(true);
      expect(await listening(port)).toBe(true);

      child.kill('SIGKILL');
      await expect.poll(() => listening(port), { timeout: 10_000, interval: 100 }).toBe(false);
      await expect.poll(() => existsSync(folder), { timeout: 10_000, interval: 100 }).toBe(false);
    } finally {
      // Still alive when an assertion above failed first: its cluster then goes with it.
      child.kill('SIGKILL');
    }
  }, 60_000);
});
