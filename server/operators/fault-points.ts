/**
 * Crash points for the kill -9 tests (test/faults/live-operator-crash.test.ts): with `FAULT_KILL_AT` naming
 * a point, the process SIGKILLs itself the first time it reaches it, exactly as if it had been
 * killed there. Ignored when NODE_ENV is production. Not a setting: never set it elsewhere.
 *
 * - `before_operator_call`: the movement is committed, the operator not yet called;
 * - `after_operator_answer`: the operator accepted the request, nothing of it committed since;
 * - `after_operator_status`: the operator gave a final status, the settlement not committed.
 */
export type FaultPoint = 'before_operator_call' | 'after_operator_answer' | 'after_operator_status';

const armed = process.env.NODE_ENV === 'production' ? undefined : process.env.FAULT_KILL_AT;

export function faultPoint(point: FaultPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
}
