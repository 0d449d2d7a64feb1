import { randomInt } from 'node:crypto';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH } from '@kamai/contract';
import type { Executor } from '../../db/client';
import { inviteCodeExists } from './users.queries';

export function randomInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  return code;
}

/** 32^8 ≈ 10^12 codes: a clash is rare, and retried. */
export async function uniqueInviteCode(db: Executor): Promise<string> {
  for (;;) {
    const code = randomInviteCode();
    if (!(await inviteCodeExists(db, code))) return code;
  }
}
