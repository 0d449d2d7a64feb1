import { createHash } from 'node:crypto';
import { CATALOGUE, formatRupees, type Locale, type MessageKey, pickLocale, translate } from '@kamai/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';

/**
 * What every route of the write yardstick shares (bench/minimal/writes.ts): the caller from the
 * bearer token's session, the envelope in the caller's language, and one transaction on one pooled
 * client. Written as a Fastify 5 + node-postgres user would; only the message catalogue is Kamai's.
 */

/** A refusal: the catalogue key, its HTTP status, the message's variables. */
export class Refusal extends Error {
  constructor(
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

export interface Caller {
  id: number;
  role: string;
  frozen: boolean;
}

const SESSION = {
  name: 'minimal_write_session',
  text: `select u.id, u.role, u.frozen from sessions s join users u on u.id = s.user_id
    where s.token_hash = $1 and s.expires_at > now()`,
};

export function localeOf(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  return header ? pickLocale(header) : 'en_US';
}

/** The caller of a bearer token, or a 401 refusal. */
export async function callerOf(pool: pg.Pool, request: FastifyRequest): Promise<Caller> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (!token) throw new Refusal('unauthorized');
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query({ ...SESSION, values: [hash] });
  const row = rows[0];
  if (!row) throw new Refusal('unauthorized');
  return { id: Number(row.id), role: row.role, frozen: row.frozen };
}

/** Staff routes: an admin or a reviewer, never a frozen one. */
export function requireStaff(caller: Caller): void {
  if (caller.role !== 'admin' && caller.role !== 'reviewer') throw new Refusal('forbidden');
  if (caller.frozen) throw new Refusal('account_frozen');
}

/**
 * Runs `work` in one transaction on one client: committed when it returns, rolled back when it
 * throws; a serialization failure or deadlock is tried again (as any careful money code does).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      const code = (error as { code?: string }).code;
      if (attempt < 5 && (code === '40001' || code === '40P01')) continue;
      throw error;
    } finally {
      client.release();
    }
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** `{code, message, key, data}` of a success, in the caller's language. */
export function ok(locale: Locale, key: MessageKey, data: unknown) {
  return { code: 200, message: translate(locale, key), key, data };
}

/** The envelope of a refusal, or rethrows what is not one (Fastify answers it 500). */
export function refuse(reply: FastifyReply, locale: Locale, error: unknown) {
  if (!(error instanceof Refusal)) throw error;
  const status = CATALOGUE[error.key];
  return reply
    .code(status)
    .send({ code: status, message: translate(locale, error.key, error.vars), key: error.key, data: error.vars });
}

/** Paise → rupees with two decimals: the contract's one formatter. */
export const rupees = formatRupees;
