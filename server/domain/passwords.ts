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

/** What can be wrong with a new password: a code each page words in its language. */
export type PasswordProblem = 'password_short' | 'password_long' | 'password_common';

/** What is wrong with a new password, or null when it may be used. */
export function passwordProblem(password: string): PasswordProblem | null {
  if (password.length < minPasswordLength) return 'password_short';
  if (password.length > maxPasswordLength) return 'password_long';
  if (isCommon(password)) return 'password_common';
  return null;
}

/** A password problem in English, for the admin CLI and the API's error messages. */
export function passwordProblemText(problem: PasswordProblem): string {
  switch (problem) {
    case 'password_short':
      return `Use at least ${minPasswordLength} characters.`;
    case 'password_long':
      return `Use at most ${maxPasswordLength} characters.`;
    case 'password_common':
      return 'This password is one of the most common ones, which are tried first: choose another.';
  }
}

/** The bounds of a password's length, for the pages that state them. */
export const passwordLength = { min: minPasswordLength, max: maxPasswordLength } as const;
