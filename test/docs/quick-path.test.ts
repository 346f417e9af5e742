/**
 * The quick path a new user reads (the README's "Run it" and the contract's introduction) says
 * that a service comes first: a payment without one is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spec } from '../support/spec.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function section(text: string, heading: RegExp): string {
  const start = text.search(heading);
  expect(start, `no ${heading} section`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + 1);
  const next = rest.search(/\n#{1,2} /);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('the quick path', () => {
  for (const [name, text] of [
    ['README "Run it"', section(readme, /^## Run it/m)],
    ['the contract\'s "Quick start"', section(spec.info.description as string, /^# Quick start/m)],
  ] as const) {
    it(`${name} creates a service before the first payment, with the exported variables`, () => {
      const service = text.indexOf('POST /services');
      const payment = text.indexOf('POST /payments');
      expect(service, text).toBeGreaterThanOrEqual(0);
      expect(payment, text).toBeGreaterThan(service);
      expect(text).toContain('PAYMENTS_BASE_URL');
    });
  }
});
