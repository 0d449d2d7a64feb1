import {
  CONTROL_CHANGE_TTL_HOURS,
  CONTROL_SINGLE_ADMIN_DELAY_HOURS,
  type ControlChangeItem,
  type ControlChangeKind,
  type ControlChangeRef,
  type ControlChangeState,
  formatRupees,
  type PageQuery,
  parseRupees,
} from '@kamai/contract';
import type { Db, Tx } from '../db/client';
import { writeAudit } from './audit.queries';
import * as q from './control-changes.queries';
import { decodeCursor, isRowId, keysetPage } from './cursor';
import { AppError } from './errors';
import type { Actor } from './routes';

/**
 * Dual control (docs/decisions/dual-control.md): a change that weakens a control is a proposal one
 * admin makes and a different admin applies; with no other active admin, the proposer may apply it
 * after a delay everyone sees. The feature that owns each kind says what its value is now and how
 * to apply it (`ControlKind`), so this module imports no feature.
 */

const HOUR_MS = 3_600_000;
/** Expired proposals closed per run of the periodic job. */
const EXPIRE_BATCH = 100;

export type ControlValue = Record<string, unknown>;
export type ControlChangeRow = q.ControlChangeRow;

export interface ControlKind {
  /** What the change's fields hold now, in the shape of its `oldValue` (the apply refuses when they differ). */
  current(tx: Tx, change: ControlChangeRow): Promise<ControlValue>;
  /** Applies `newValue` as `actor`, locking, writing and auditing as the owner's own path does. */
  apply(tx: Tx, change: ControlChangeRow, actor: Actor): Promise<void>;
}
export type ControlKinds = Record<ControlChangeKind, ControlKind>;

/** Which way a numeric field moves to make its control stricter. */
export type Tighter = 'lower' | 'higher';

function isPlainObject(value: unknown): value is ControlValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The leaves of a nested value as dotted paths. */
export function flatten(value: ControlValue, prefix = ''): [string, unknown][] {
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isPlainObject(inner) ? flatten(inner, path) : [[path, inner] as [string, unknown]];
  });
}

function leafAt(value: ControlValue, path: string): unknown {
  let here: unknown = value;
  for (const key of path.split('.')) here = isPlainObject(here) ? here[key] : undefined;
  return here;
}

function setLeaf(target: ControlValue, path: string, leaf: unknown) {
  const keys = path.split('.');
  let here = target;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(here[key])) here[key] = {};
    here = here[key] as ControlValue;
  }
  here[keys[keys.length - 1] as string] = leaf;
}

/** `source`'s leaves at the paths `shape` has, in `shape`'s nesting. */
export function pickLike(source: ControlValue, shape: ControlValue): ControlValue {
  const picked: ControlValue = {};
  for (const [path] of flatten(shape)) setLeaf(picked, path, leafAt(source, path) ?? null);
  return picked;
}

/** The fields `requested` changes (leaves that differ from `current`), before and after. */
export function diffControl(current: ControlValue, requested: ControlValue) {
  const oldValue: ControlValue = {};
  const newValue: ControlValue = {};
  for (const [path, leaf] of flatten(requested)) {
    if (leaf === undefined) continue;
    const before = leafAt(current, path) ?? null;
    if (JSON.stringify(before) === JSON.stringify(leaf)) continue;
    setLeaf(oldValue, path, before);
    setLeaf(newValue, path, leaf);
  }
  return { oldValue, newValue };
}

/** A number, or a rupee string as paise: how two values of one field compare. */
function magnitude(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string') return parseRupees(value);
  return undefined;
}

/**
 * True when every changed field moves the way `tighter` names for it (a field it does not name, or a
 * value that is not a number, never tightens). An empty change tightens trivially: it weakens nothing.
 */
export function onlyTightens(
  diff: { oldValue: ControlValue; newValue: ControlValue },
  tighter: (field: string) => Tighter | undefined,
) {
  return flatten(diff.newValue).every(([path, next]) => {
    const way = tighter(path);
    const from = magnitude(leafAt(diff.oldValue, path));
    const to = magnitude(next);
    if (!way || from === undefined || to === undefined) return false;
    return way === 'lower' ? to < from : to > from;
  });
}

/** Plain JSON of a parsed request: paise (bigint) back to the rupee strings the API accepts. */
export function apiShape(value: unknown): unknown {
  if (typeof value === 'bigint') return formatRupees(value);
  if (Array.isArray(value)) return value.map(apiShape);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== undefined)
        .map(([key, inner]) => [key, apiShape(inner)]),
    );
  }
  return value;
}

/** JSON with sorted keys: two values compare equal whatever order their keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    isPlainObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  );
}

function refOf(row: ControlChangeRow, at: Date): ControlChangeRef {
  return {
    id: row.id,
    state: row.state === 'pending' && row.expiresAt <= at ? 'expired' : row.state,
    expiresAt: row.expiresAt.toISOString(),
    earliestApplyAt: row.earliestApplyAt.toISOString(),
  };
}

/**
 * Records a proposal in the caller's transaction and audits it (`control.propose`). With no other
 * active admin the proposer may apply it themself after the single-admin delay; otherwise only
 * another admin may. It expires after `CONTROL_CHANGE_TTL_HOURS`.
 */
export async function proposeChange(
  tx: Tx,
  at: Date,
  actor: Actor,
  input: { kind: ControlChangeKind; target: string; oldValue: ControlValue; newValue: ControlValue },
): Promise<ControlChangeRef> {
  const alone = (await q.countOtherActiveAdmins(tx, actor.id)) === 0;
  const row = await q.insertControlChange(tx, {
    ...input,
    proposedBy: actor.id,
    createdAt: at,
    expiresAt: new Date(at.getTime() + CONTROL_CHANGE_TTL_HOURS * HOUR_MS),
    earliestApplyAt: alone ? new Date(at.getTime() + CONTROL_SINGLE_ADMIN_DELAY_HOURS * HOUR_MS) : at,
  });
  await writeAudit(tx, {
    actorId: actor.id,
    action: 'control.propose',
    target: input.target,
    before: input.oldValue,
    after: { controlChangeId: row.id, kind: input.kind, value: input.newValue, singleAdmin: alone },
    requestId: actor.requestId,
  });
  return refOf(row, at);
}

async function expireChange(tx: Tx, change: ControlChangeRow, at: Date) {
  await q.updateControlChange(tx, change.id, { state: 'expired', decidedAt: at });
  await writeAudit(tx, {
    actorId: change.proposedBy,
    action: 'control.expire',
    target: change.target,
    before: { controlChangeId: change.id, state: 'pending' },
    after: { controlChangeId: change.id, state: 'expired', expiresAt: change.expiresAt.toISOString() },
  });
}

/** The periodic job: closes proposals whose time ran out, each with its audit row (the proposer as actor). */
export async function expireDueChanges(db: Db, at: Date) {
  return db.transaction(async (tx) => {
    const due = await q.lockExpired(tx, at, EXPIRE_BATCH);
    for (const change of due) await expireChange(tx, change, at);
    return due.length;
  });
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function createControlService({ db, now, kinds }: { db: Db; now: () => Date; kinds: ControlKinds }) {
  function toItem(row: Awaited<ReturnType<typeof q.listControlChanges>>[number]): ControlChangeItem {
    const c = row.change;
    return {
      ...refOf(c, now()),
      kind: c.kind,
      target: c.target,
      targetName: row.targetName,
      fields: flatten(c.newValue).map(([field, to]) => ({
        field,
        from: text(leafAt(c.oldValue, field)),
        to: text(to),
      })),
      proposedBy: c.proposedBy,
      proposedByName: row.proposedByName,
      createdAt: c.createdAt.toISOString(),
      singleAdmin: c.earliestApplyAt > c.createdAt,
      decidedBy: c.decidedBy,
      decidedByName: row.decidedByName,
      decidedAt: c.decidedAt?.toISOString() ?? null,
    };
  }

  async function itemOf(id: number) {
    const [row] = await q.listControlChanges(db, { id, limit: 1 });
    if (!row) throw new AppError('control_change_not_found');
    return toItem(row);
  }

  /** Locks a pending change for a decision; an expired one is marked so (committed) and refused. */
  async function decide(actor: Actor, id: number, act: (tx: Tx, change: ControlChangeRow) => Promise<void>) {
    const outcome = await db.transaction(async (tx) => {
      const change = await q.lockControlChange(tx, id);
      if (!change) throw new AppError('control_change_not_found');
      if (change.state !== 'pending') throw new AppError('control_change_decided');
      const me = await q.lockActor(tx, actor.id);
      if (me?.role !== 'admin' || me.frozen || me.deletedAt) throw new AppError('forbidden');
      if (change.expiresAt <= now()) {
        await expireChange(tx, change, now());
        return 'expired' as const;
      }
      await act(tx, change);
      return 'decided' as const;
    });
    if (outcome === 'expired') throw new AppError('control_change_expired');
    return itemOf(id);
  }

  /**
   * Applies a pending change. Never by an account the change is about, nor by one promoted on the
   * proposer's own proposal; by the proposer only when it was proposed with no other active admin,
   * there is still none, and the delay has passed. Refused when what it changes is no longer what it
   * was when proposed.
   */
  function apply(actor: Actor, input: { id: number }) {
    return decide(actor, input.id, async (tx, change) => {
      if (change.target === `user:${actor.id}`) throw new AppError('control_change_about_self');
      if (change.proposedBy === actor.id) {
        const singleAdmin = change.earliestApplyAt > change.createdAt;
        if (!singleAdmin || (await q.countOtherActiveAdmins(tx, actor.id)) > 0) {
          throw new AppError('control_second_admin_required');
        }
        if (now() < change.earliestApplyAt) throw new AppError('control_delay_pending');
      } else if (await q.promotedOnProposalOf(tx, actor.id, change.proposedBy)) {
        throw new AppError('control_promoted_by_proposer');
      }
      const kind = kinds[change.kind];
      if (canonical(await kind.current(tx, change)) !== canonical(change.oldValue)) {
        throw new AppError('control_change_stale');
      }
      await kind.apply(tx, change, actor);
      await q.updateControlChange(tx, change.id, { state: 'applied', decidedBy: actor.id, decidedAt: now() });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'control.apply',
        target: change.target,
        before: change.oldValue,
        after: { controlChangeId: change.id, kind: change.kind, value: change.newValue, proposedBy: change.proposedBy },
        requestId: actor.requestId,
      });
    });
  }

  /** Any active admin cancels a pending change (the proposer too). */
  function cancel(actor: Actor, input: { id: number }) {
    return decide(actor, input.id, async (tx, change) => {
      await q.updateControlChange(tx, change.id, { state: 'cancelled', decidedBy: actor.id, decidedAt: now() });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'control.cancel',
        target: change.target,
        before: { controlChangeId: change.id, state: 'pending' },
        after: { controlChangeId: change.id, state: 'cancelled', proposedBy: change.proposedBy },
        requestId: actor.requestId,
      });
    });
  }

  async function list(query: PageQuery & { state?: ControlChangeState }) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listControlChanges(db, { state: query.state, beforeId, limit: query.limit + 1 });
    const page = keysetPage(rows, query.limit, (row) => row.change.id);
    const live = await q.listLivePending(db, now());
    const delayed = live.filter((c) => c.earliestApplyAt > c.createdAt).map((c) => c.earliestApplyAt.getTime());
    return {
      items: page.items.map(toItem),
      nextCursor: page.nextCursor,
      pending: live.length,
      delayedUntil: delayed.length ? new Date(Math.min(...delayed)).toISOString() : null,
    };
  }

  return { apply, cancel, list };
}

export type ControlService = ReturnType<typeof createControlService>;
