import { readFileSync } from 'node:fs';
import { AppError } from './errors';

/**
 * The 10,000 most common passwords (ASVS 6.1.2), from `common-passwords.txt` beside this file (copied
 * beside the bundle by scripts/bundle-server.ts; its header names the source). Compared lower-cased,
 * so `Password1` is refused like `password1`. Read once, when first needed (~80 KB).
 */
let list: Set<string> | undefined;

function commonPasswords(): Set<string> {
  list ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.toLowerCase()),
  );
  return list;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** Throws `password_too_common` on the named field when the password is one of the list. */
export function refuseCommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password))
    throw new AppError('password_too_common', { fields: { [field]: 'password_too_common' } });
}
