import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPassword, setHashPriorities, verifyPassword } from './password';

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.runIf(existsSync('/proc/self/task'))('password hashing pools', () => {
  it('run each pool’s threads at its own priority (HASH_NICE_LOGIN, HASH_NICE_SIGNUP)', async () => {
    setHashPriorities({ login: 7, signup: 13 });
    const [forLogin, forSignup] = await Promise.all([
      hashPassword('login-pool', 'login'),
      hashPassword('signup-pool', 'signup'),
    ]);
    const nice = threadNiceValues();
    expect(nice).toContain(7);
    expect(nice).toContain(13);
    expect(await verifyPassword(forLogin, 'login-pool')).toBe(true);
    expect(await verifyPassword(forSignup, 'signup-pool')).toBe(true);
    expect(await verifyPassword(forSignup, 'wrong')).toBe(false);
  });
});
