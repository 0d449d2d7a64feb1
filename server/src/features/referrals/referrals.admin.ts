import type { RebateSetBody, RebateSettings } from '@kamai/contract';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import {
  type ControlKind,
  diffControl,
  onlyTightens,
  pickLike,
  proposeChange,
  type Tighter,
} from '../../platform/control-changes';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import { getSetting, putSetting } from '../../platform/settings.queries';
import { markDuplicateIdentity } from '../users';
import { reversePendingRebates } from './referrals.rebates';

/** Lower rates and a longer hold only tighten what a rebate costs. */
const TIGHTER: Record<string, Tighter> = { level1Bps: 'lower', level2Bps: 'lower', holdDays: 'higher' };

/** The operators' side of referrals: the rebate rates and hold, and duplicate identities. */
export function createReferralsAdmin({ db, now }: { db: Db; now: () => Date }) {
  function rebateGet(): Promise<RebateSettings> {
    return getSetting(db, 'rebate');
  }

  /** Stores the rates and hold and audits it (the caller holds the row's lock). */
  async function writeRebate(tx: Tx, before: RebateSettings, after: RebateSettings, actor: Actor) {
    await putSetting(tx, 'rebate', after);
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'rebate.set',
      target: 'setting:rebate',
      before,
      after,
      requestId: actor.requestId,
    });
    return after;
  }

  /**
   * Lower rates and a longer hold apply at once; any other change (a higher rate, a shorter hold) is
   * proposed for a second admin (docs/decisions/dual-control.md).
   */
  async function rebateSet(actor: Actor, rates: RebateSetBody) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'rebate', { forUpdate: true });
      // The hold applies to rebates owed from now on; those already pending keep their date.
      const after: RebateSettings = {
        level1Bps: rates.level1Bps,
        level2Bps: rates.level2Bps,
        holdDays: rates.holdDays ?? before.holdDays,
      };
      const diff = diffControl(before, after);
      if (onlyTightens(diff, (field) => TIGHTER[field]))
        return { ...(await writeRebate(tx, before, after, actor)), change: null };
      const change = await proposeChange(tx, now(), actor, { kind: 'rebate', target: 'setting:rebate', ...diff });
      return { ...before, change };
    });
  }

  /** Dual control of the rates and hold: their current values, and the apply of a proposal. */
  const rebateControl: ControlKind = {
    current: async (tx, change) => pickLike(await getSetting(tx, 'rebate', { forUpdate: true }), change.oldValue),
    async apply(tx, change, actor) {
      const before = await getSetting(tx, 'rebate', { forUpdate: true });
      await writeRebate(tx, before, { ...before, ...(change.newValue as Partial<RebateSettings>) }, actor);
    },
  };

  /**
   * An operator found the user to be a duplicate identity (a second account of one person): from now
   * on their rewards owe no rebate, and their uplines' pending rebates on them are reversed, both
   * levels, in one transaction with the audit row. Marking a user again reverses nothing more.
   */
  async function userDuplicate(actor: Actor, input: { userId: number; reason: string }) {
    return db.transaction(async (tx) => {
      const before = await markDuplicateIdentity(tx, input.userId);
      if (!before) throw new AppError('user_not_found');
      const reversed = await reversePendingRebates(tx, { inviteeId: input.userId }, 'duplicate_identity', now());
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'user.duplicate',
        target: `user:${input.userId}`,
        before: { returningIdentity: before.returningIdentity },
        after: { returningIdentity: true, reason: input.reason, rebatesReversed: reversed },
        requestId: actor.requestId,
      });
      return { reversed };
    });
  }

  return { rebateGet, rebateSet, userDuplicate, rebateControl };
}

export type ReferralsAdmin = ReturnType<typeof createReferralsAdmin>;
