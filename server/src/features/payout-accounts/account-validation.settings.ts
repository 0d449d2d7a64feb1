import {
  type AccountValidationSettings,
  type AccountValidationSettingsChange,
  type AccountValidationSettingsShown,
  formatRupees,
} from '@kamai/contract';
import type { Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { getSetting, putSetting } from '../../platform/settings.queries';
import type { SettingsSection } from '../../platform/settings.service';

export function showAccountValidation(stored: AccountValidationSettings): AccountValidationSettingsShown {
  return {
    dailyLimit: stored.dailyLimit,
    fee: formatRupees(BigInt(stored.feePaise)),
    nameMatchMin: stored.nameMatchMin,
  };
}

/**
 * The `accountValidation` part of the settings page (platform/settings.service.ts): the checks a user
 * may start a day, the fee posted per check and the name match below which a withdrawal is a risk.
 * A change keeps the fields left out; audited only when it changed.
 */
export const accountValidationSettings: SettingsSection<
  AccountValidationSettingsShown,
  AccountValidationSettingsChange
> = {
  show: async (db: Executor) => showAccountValidation(await getSetting(db, 'accountValidation')),
  async change(tx, change, actor) {
    const before = await getSetting(tx, 'accountValidation', { forUpdate: true });
    const after: AccountValidationSettings = {
      dailyLimit: change.dailyLimit ?? before.dailyLimit,
      feePaise: change.fee === undefined ? before.feePaise : Number(change.fee),
      nameMatchMin: change.nameMatchMin ?? before.nameMatchMin,
    };
    const shownBefore = showAccountValidation(before);
    const shownAfter = showAccountValidation(after);
    if (JSON.stringify(shownAfter) !== JSON.stringify(shownBefore)) {
      await putSetting(tx, 'accountValidation', after);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'settings.set',
        target: 'setting:accountValidation',
        before: shownBefore,
        after: shownAfter,
        requestId: actor.requestId,
      });
    }
    return shownAfter;
  },
};
