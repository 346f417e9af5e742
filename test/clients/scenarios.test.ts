/**
 * Every client library runs the same integration scenarios against a real server
 * (test/clients/scenarios.json). This checks that no suite has dropped or never written one: each
 * scenario id must name a test in each suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/child-server.js';

const { scenarios } = JSON.parse(readFileSync(join(repoRoot, 'test/clients/scenarios.json'), 'utf8')) as {
  scenarios: Array<{ id: string }>;
};

const suites = {
  python: 'client/python/tests/test_integration.py',
  php: 'client/php/tests/IntegrationTest.php',
};

describe('client integration suites', () => {
  for (const [language, file] of Object.entries(suites)) {
    it(`the ${language} suite runs every scenario of scenarios.json`, () => {
      const source = readFileSync(join(repoRoot, file), 'utf8');
      const missing = scenarios
        .map((s) => s.id)
        .filter((id) => !new RegExp(`test_?${id}\\b|test${camel(id)}\\b`, 'i').test(source));
      expect(missing).toEqual([]);
    });
  }
});

function camel(id: string): string {
  return id.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
