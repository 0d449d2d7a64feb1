import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '@kamai/contract';
import type { Db } from '../db/client';
import { refusalOf } from './errors';
import { claimKey, storeAnswer } from './idempotency.queries';

export interface IdempotentCall {
  /** Who calls: keys are per caller and route. */
  actorId: number;
  /** The route (a retry under another route is a different request). */
  scope: string;
  /** The client's Idempotency-Key; without one each call is a new operation. */
  key: string | undefined;
  /** The request as parsed (its hash tells a retry from a different request under the same key). */
  request: unknown;
}

const json = (value: unknown) =>
  JSON.stringify(value, (_name, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/**
 * Runs a money-moving operation once per Idempotency-Key (docs/decisions/withdrawals.md): the key is
 * taken, the operation runs and its answer is stored, all in one transaction. A retry with the same key
 * and body (after a 503 in a failover, a lost answer) gets the first answer, never a second posting; with
 * another body it is refused (409 idempotency_key_reused). Parallel requests with one key meet at the
 * key's primary key: the second waits for the first to commit and then reads its answer. An operation
 * that fails rolls the key back with it, so a retry after a 503 runs it afresh. The key is taken and the
 * answer stored by the database's `idempotency_claim` and `idempotency_answer` (db/functions), the same
 * ones `withdraw_request` calls for withdraw/add: one implementation of the protocol.
 *
 * `run` gets the transaction as its database: the services' own `db.transaction` becomes a savepoint.
 */
export async function idempotent<T>(db: Db, call: IdempotentCall, run: (db: Db) => Promise<T>): Promise<T> {
  if (call.key === undefined) return run(db);
  const key = call.key;
  const requestHash = createHash('sha256').update(json(call.request)).digest('hex');
  const scoped = { userId: call.actorId, scope: call.scope, key };
  return db.transaction(async (tx) => {
    const replay = await claimKey(tx, { ...scoped, requestHash }).catch((error: unknown) => {
      throw refusalOf(error) ?? error;
    });
    if (replay) return replay.replay as T;
    const answer = await run(tx as unknown as Db);
    await storeAnswer(tx, scoped, json(answer ?? null));
    return answer;
  });
}

interface KeyedContext {
  actor: { id: number };
  headers: object;
  body: unknown;
}

/**
 * For a feature's handlers: `once(ctx, scope, (service) => ...)` runs the call through `idempotent`,
 * with the request's Idempotency-Key and a service made on the call's transaction by `make`.
 */
export function keyedCalls<S>(db: Db, make: (db: Db) => S) {
  return <T>(ctx: KeyedContext, scope: string, run: (service: S) => Promise<T>) => {
    const key = (ctx.headers as Record<string, unknown>)[IDEMPOTENCY_KEY_HEADER];
    return idempotent(
      db,
      { actorId: ctx.actor.id, scope, key: typeof key === 'string' ? key : undefined, request: ctx.body },
      (tx) => run(make(tx)),
    );
  };
}
