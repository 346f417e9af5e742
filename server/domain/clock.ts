/** The source of time for the domain, so tests can move it instead of waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

const msPerDay = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** The last day formatted (`YYYY-MM-DDT`): a list's times fall on a few days. */
let dayAt = Number.NaN;
let dayText = '';

/**
 * `new Date(ms).toISOString()`, without making a Date for each time: the day's text is kept,
 * the time of day is arithmetic. A page formats every row's times, and toISOString was the larger
 * part of it (docs/performance.md). Throws the same RangeError for a time that is not one.
 */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(time: number | null): string | null {
  if (time === null) return null;
  // Date's range, NaN excluded: 8.64e15 + 1 falls on a valid day but is not a time.
  if (!(Math.abs(time) <= 8.64e15)) throw new RangeError('Invalid time value');
  const ms = Math.trunc(time); // as Date does with a fraction of a millisecond
  const day = Math.floor(ms / msPerDay);
  if (day !== dayAt) {
    dayText = new Date(day * msPerDay).toISOString().slice(0, -13);
    dayAt = day;
  }
  let rest = ms - day * msPerDay;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${dayText}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
}
