import type { RebateSettings } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import type { Actor } from '../../platform/routes';
import { getSetting, putSetting } from '../../platform/settings.queries';

/** The operators' side of referrals: the rebate rates. */
export function createReferralsAdmin({ db }: { db: Db }) {
  function rebateGet(): Promise<RebateSettings> {
    return getSetting(db, 'rebate');
  }

  async function rebateSet(actor: Actor, rates: RebateSettings) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'rebate', { forUpdate: true });
      const after = { level1Bps: rates.level1Bps, level2Bps: rates.level2Bps };
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
    });
  }

  return { rebateGet, rebateSet };
}

export type ReferralsAdmin = ReturnType<typeof createReferralsAdmin>;
