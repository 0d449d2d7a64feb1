import { formatRupees, type RouteBodyParsed, type WithdrawalLimits, type WithdrawalLimitsPaise } from '@kamai/contract';
import type { Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import { getSetting, putSetting } from '../../platform/settings.queries';
import type { SettingsSection } from '../../platform/settings.service';

/** The limits, with the fee taken from each paid withdrawal and the payout time the dialog promises. */
export type WithdrawalSettings = WithdrawalLimitsPaise & { fee: bigint; payoutHours: number };

export async function readLimits(db: Executor): Promise<WithdrawalSettings> {
  const stored = await getSetting(db, 'withdrawal');
  return {
    min: BigInt(stored.minPaise),
    max: BigInt(stored.maxPaise),
    dailyCount: stored.dailyCount,
    dailyTotal: BigInt(stored.dailyTotalPaise),
    fee: BigInt(stored.feePaise),
    payoutHours: stored.payoutHours,
  };
}

export function showLimits(limits: WithdrawalSettings): WithdrawalLimits {
  return {
    min: formatRupees(limits.min),
    max: formatRupees(limits.max),
    dailyCount: limits.dailyCount,
    dailyTotal: formatRupees(limits.dailyTotal),
    fee: formatRupees(limits.fee),
    payoutHours: limits.payoutHours,
  };
}

/**
 * The `withdrawal` part of the settings page (platform/settings.service.ts). A change keeps the fields
 * left out; the minimum may not pass the maximum or the daily total.
 */
export const limitSettings: SettingsSection<WithdrawalLimits, RouteBodyParsed<'adminSettingsSet'>['withdrawal']> = {
  show: async (db) => showLimits(await readLimits(db)),
  async change(tx, change, actor) {
    await getSetting(tx, 'withdrawal', { forUpdate: true });
    const before = await readLimits(tx);
    const after: WithdrawalSettings = {
      min: change.min ?? before.min,
      max: change.max ?? before.max,
      dailyCount: change.dailyCount ?? before.dailyCount,
      dailyTotal: change.dailyTotal ?? before.dailyTotal,
      fee: change.fee ?? before.fee,
      payoutHours: change.payoutHours ?? before.payoutHours,
    };
    if (after.min > after.max || after.min > after.dailyTotal) throw new AppError('withdrawal_limits_invalid');
    // A fee that would swallow the smallest withdrawal leaves nothing to pay out.
    if (after.fee >= after.min) {
      throw new AppError('withdrawal_fee_too_high', {
        fee: formatRupees(after.fee),
        fields: { fee: 'withdrawal_fee_too_high' },
      });
    }
    await putSetting(tx, 'withdrawal', {
      minPaise: Number(after.min),
      maxPaise: Number(after.max),
      dailyCount: after.dailyCount,
      dailyTotalPaise: Number(after.dailyTotal),
      feePaise: Number(after.fee),
      payoutHours: after.payoutHours,
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'settings.set',
      target: 'setting:withdrawal',
      before: showLimits(before),
      after: showLimits(after),
      requestId: actor.requestId,
    });
    return showLimits(after);
  },
};
