import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exitedWithOutput } from './process-exit.js';

/** A shell that exits at once and leaves a process behind that prints after it, on its pipes. */
function exitsBeforeItsOutput(delayMs: number) {
  const child = spawn('sh', ['-c', `(sleep ${delayMs / 1000}; echo late) & echo early`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return { child, output: () => out };
}

describe('exitedWithOutput', () => {
  it("resolves once the output is read, not at 'exit'", async () => {
    const { child, output } = exitsBeforeItsOutput(300);
    let atExit = '';
    child.once('exit', () => {
      atExit = output();
    });
    const exit = await exitedWithOutput(child);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(atExit).not.toContain('late');
    expect(output()).toBe('early\nlate\n');
  });

  it('gives up waiting for the pipes after its bound', async () => {
    const { child, output } = exitsBeforeItsOutput(3_000);
    const started = performance.now();
    await exitedWithOutput(child, 200);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(output()).toBe('early\n');
  });
});
