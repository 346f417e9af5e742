import type { ChildProcess } from 'node:child_process';

/**
 * How `child` exited, once its output has been read too. Node can emit 'exit' before the last
 * chunks of stdout and stderr are read (a busy machine lost the admin CLI's JSON line that way),
 * so this also waits for both pipes to close, at most `boundMs`: a process the child started may
 * still hold them. Call it right after `spawn`, before any output can arrive.
 */
export function exitedWithOutput(
  child: ChildProcess,
  boundMs = 2_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const outputClosed = Promise.all(
    [child.stdout, child.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => (stream ? stream.once('close', () => resolve()) : resolve())),
    ),
  );
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      const bound = new Promise<void>((done) => setTimeout(done, boundMs).unref());
      void Promise.race([outputClosed, bound]).then(() => resolve({ code, signal }));
    });
  });
}
