/** Days of the account's time zone as the instants filters and reports use (decision 0036). */
import { describe, expect, it } from 'vitest';
import { dayOf, dayStart } from '../../server/i18n/translator.js';

describe('days in a time zone', () => {
  it("starts Douala's day an hour before UTC's, and New York's hours after it, whatever its daylight saving", () => {
    expect(new Date(dayStart('2026-11-20', 'Africa/Douala')).toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(new Date(dayStart('2026-11-20', 'UTC')).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(new Date(dayStart('2026-07-01', 'America/New_York')).toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
    expect(new Date(dayStart('2026-12-01', 'America/New_York')).toISOString()).toBe(
      '2026-12-01T05:00:00.000Z',
    );
  });

  it('names the local day an instant falls on', () => {
    expect(dayOf(Date.parse('2026-11-19T23:30:00Z'), 'Africa/Douala')).toBe('2026-11-20');
    expect(dayOf(Date.parse('2026-11-19T22:30:00Z'), 'Africa/Douala')).toBe('2026-11-19');
  });
});
