/**
 * What a dashboard password must be: long enough, not too long, and not one of the commonest
 * passwords, nor one of them with digits or symbols added at its end (`password2024!`), as
 * NIST SP 800-63B asks of a list of known passwords (docs/decisions/0031-dashboard-sign-in-and-passwords.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';

const minPasswordLength = 10;
const maxPasswordLength = 200;

let common: Set<string> | undefined;

/** The list (server/domain/data/common-passwords.txt, its source in the README beside it), read once. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(join(projectRoot, 'server/domain/data/common-passwords.txt'), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line.length > 0),
  );
  return common;
}

/** True when the password, in any letter case, is a common one, alone or followed by digits or symbols. */
function isCommon(password: string): boolean {
  const lowered = password.normalize('NFKC').toLowerCase();
  const list = commonPasswords();
  if (list.has(lowered)) return true;
  const stem = lowered.replace(/[^\p{L}]+$/u, '');
  return stem.length > 0 && stem !== lowered && list.has(stem);
}

/** What is wrong with a new password, or null when it may be used. */
export function passwordProblem(password: string): string | null {
  if (password.length < minPasswordLength) return `Use at least ${minPasswordLength} characters.`;
  if (password.length > maxPasswordLength) return `Use at most ${maxPasswordLength} characters.`;
  if (isCommon(password)) {
    return 'This password is one of the most common ones, which are tried first: choose another.';
  }
  return null;
}
