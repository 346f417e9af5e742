/**
 * What `createPaymentsClient` refuses before sending anything: unusable options, a live key in
 * the sandbox, a live key in a browser.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPaymentsClient,
  type PaymentsClientOptions,
  PaymentsConfigError,
} from '../../client/src/index.js';

const live = { apiKey: 'sk_live_0123456789abcdef', apiUser: 'user-1' };
const test = { apiKey: 'sk_test_0123456789abcdef', apiUser: 'user-1' };

function refusal(options: PaymentsClientOptions): PaymentsConfigError {
  try {
    createPaymentsClient(options);
  } catch (error) {
    if (error instanceof PaymentsConfigError) return error;
    throw error;
  }
  throw new Error('createPaymentsClient accepted the options');
}

describe('a live key in the sandbox', () => {
  it('is refused at construction, with a clear error', () => {
    const error = refusal({ ...live, sandbox: true });
    expect(error.code).toBe('live_key_in_sandbox');
    expect(error.message).toContain('sk_test_');
    expect(error.message).toContain('live key');
  });

  it('is the only combination refused', () => {
    expect(() => createPaymentsClient({ ...test, sandbox: true })).not.toThrow();
    expect(() => createPaymentsClient({ ...test })).not.toThrow();
    expect(() => createPaymentsClient({ ...live })).not.toThrow();
  });
});

describe('in a browser', () => {
  const globals = globalThis as { window?: unknown; document?: unknown };

  afterEach(() => {
    delete globals.window;
    delete globals.document;
  });

  it('refuses a live key, saying to keep it on a server', () => {
    globals.window = {};
    globals.document = {};
    const error = refusal({ ...live });
    expect(error.code).toBe('live_key_in_browser');
    expect(error.message).toMatch(/browser/);
    expect(error.message).toMatch(/server/);
  });

  it('accepts a test key', () => {
    globals.window = {};
    globals.document = {};
    expect(() => createPaymentsClient({ ...test, sandbox: true })).not.toThrow();
  });

  it('is not detected from `window` alone (some server runtimes define it)', () => {
    globals.window = {};
    expect(() => createPaymentsClient({ ...live })).not.toThrow();
  });
});

describe('unusable options', () => {
  it.each<[string, PaymentsClientOptions]>([
    ['an empty apiKey', { apiKey: '', apiUser: 'user-1' }],
    ['an empty apiUser', { apiKey: 'sk_test_x', apiUser: ' ' }],
    ['a relative baseUrl', { ...test, baseUrl: '/v1' }],
    ['a negative maxRetries', { ...test, retry: { maxRetries: -1 } }],
    ['a fractional baseDelayMs', { ...test, retry: { baseDelayMs: 0.5 } }],
    ['a zero timeoutMs', { ...test, timeoutMs: 0 }],
  ])('refuses %s', (_name, options) => {
    expect(refusal(options).code).toBe('invalid_option');
  });
});
