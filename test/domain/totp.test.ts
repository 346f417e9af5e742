/**
 * The time-based codes of two-step sign-in (server/domain/totp.ts) against the RFC's own test
 * vectors, so any authenticator app agrees with the server; and the rules a code is taken by.
 */
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  recoveryCodeKey,
  totpCode,
  totpStep,
} from '../../server/domain/totp.js';

describe('base32 (RFC 4648 section 10)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ];
  for (const [plain, encoded] of vectors) {
    it(`"${plain}" is "${encoded}" and back`, () => {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded)?.toString()).toBe(plain);
    });
  }

  it('reads a key as people type it (lower case, spaces, padding) and refuses other characters', () => {
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
  });
});

describe('TOTP codes (RFC 6238 appendix B, SHA-1)', () => {
  const secret = Buffer.from('12345678901234567890');
  // The RFC's eight-digit codes; a six-digit code is their last six digits.
  const vectors: Array<[seconds: number, code: string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  for (const [seconds, code] of vectors) {
    it(`at ${seconds} s the code is ${code.slice(2)}`, () => {
      expect(totpCode(secret, totpStep(seconds * 1000))).toBe(code.slice(2));
    });
  }
});

describe('which code is taken', () => {
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  const at = 1111111111_000;
  const codeAt = (ms: number) => totpCode(Buffer.from('12345678901234567890'), totpStep(ms));

  it("takes the current code, and the one of a step either side (a phone's clock a little off)", () => {
    expect(matchingStep(secret, codeAt(at), at, null)).toBe(totpStep(at));
    expect(matchingStep(secret, codeAt(at - 30_000), at, null)).toBe(totpStep(at) - 1);
    expect(matchingStep(secret, codeAt(at + 30_000), at, null)).toBe(totpStep(at) + 1);
  });

  it('refuses a code two steps away, a code used already, and anything not six digits', () => {
    expect(matchingStep(secret, codeAt(at - 60_000), at, null)).toBeUndefined();
    expect(matchingStep(secret, codeAt(at + 60_000), at, null)).toBeUndefined();
    expect(matchingStep(secret, codeAt(at), at, totpStep(at))).toBeUndefined();
    expect(matchingStep(secret, codeAt(at - 30_000), at, totpStep(at))).toBeUndefined();
    expect(matchingStep(secret, `${codeAt(at)}0`, at, null)).toBeUndefined();
    expect(matchingStep(secret, 'abcdef', at, null)).toBeUndefined();
  });

  it('reads a code typed with a space in the middle', () => {
    const code = codeAt(at);
    expect(matchingStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at, null)).toBe(totpStep(at));
  });
});

describe('secrets, the app link and recovery codes', () => {
  it('makes 160-bit secrets, each new', () => {
    const a = newTotpSecret();
    expect(base32Decode(a)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('names the issuer and the user in the link an authenticator app scans', () => {
    const text = otpauthUri('Payments Dashboard', 'ops@shop.cm', 'JBSWY3DPEHPK3PXP');
    expect(text).not.toContain('+');
    const uri = new URL(text);
    expect([uri.protocol, uri.host]).toEqual(['otpauth:', 'totp']);
    expect(decodeURIComponent(uri.pathname)).toBe('/Payments Dashboard:ops@shop.cm');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Payments Dashboard',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });

  it('makes ten distinct recovery codes without look-alike characters, read back however typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    const first = codes[0] as string;
    expect(recoveryCodeKey(` ${first.toUpperCase().replace('-', ' ')} `)).toBe(first.replace('-', ''));
    expect(recoveryCodeKey('123456')).toBeUndefined();
  });
});
