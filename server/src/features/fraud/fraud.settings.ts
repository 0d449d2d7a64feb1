import {
  formatRupees,
  RISK_DEFAULTS,
  type RiskSettings,
  type RiskSettingsChange,
  type RiskSettingsStored,
} from '@kamai/contract';
import type { Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { getSetting, putSetting } from '../../platform/settings.queries';
import type { SettingsSection } from '../../platform/settings.service';

/** The stored `risk` settings over the defaults; weights merged one by one, so a new signal gets its default. */
export async function readRiskSettings(
  db: Executor,
  options: { forUpdate?: boolean } = {},
): Promise<RiskSettingsStored> {
  const stored = await getSetting(db, 'risk', options);
  return { ...stored, weights: { ...RISK_DEFAULTS.weights, ...stored.weights } };
}

export function showRiskSettings(stored: RiskSettingsStored): RiskSettings {
  return {
    weights: stored.weights,
    idleInvitees: stored.idleInvitees,
    inviteShareBps: stored.inviteShareBps,
    quickWithdrawalHours: stored.quickWithdrawalHours,
    secondApprovalAbove: formatRupees(BigInt(stored.secondApprovalAbovePaise)),
    creditApprovalAbove: formatRupees(BigInt(stored.creditApprovalAbovePaise)),
    qualifiedInvite: stored.qualifiedInvite,
  };
}

/** Applies a change (fields left out stay) and stores the result; the caller holds the row's lock. */
export async function changeRiskSettings(db: Executor, before: RiskSettingsStored, change: RiskSettingsChange) {
  const weights = { ...before.weights };
  for (const [signal, value] of Object.entries(change.weights ?? {})) {
    if (value !== undefined) weights[signal as keyof typeof weights] = value;
  }
  const after: RiskSettingsStored = {
    weights,
    idleInvitees: change.idleInvitees ?? before.idleInvitees,
    inviteShareBps: change.inviteShareBps ?? before.inviteShareBps,
    quickWithdrawalHours: change.quickWithdrawalHours ?? before.quickWithdrawalHours,
    secondApprovalAbovePaise:
      change.secondApprovalAbove === undefined ? before.secondApprovalAbovePaise : Number(change.secondApprovalAbove),
    creditApprovalAbovePaise:
      change.creditApprovalAbove === undefined ? before.creditApprovalAbovePaise : Number(change.creditApprovalAbove),
    qualifiedInvite: change.qualifiedInvite ?? before.qualifiedInvite,
  };
  await putSetting(db, 'risk', after);
  return after;
}

/** The `risk` part of the settings page (platform/settings.service.ts); audited only when it changed. */
export const riskSettings: SettingsSection<RiskSettings, RiskSettingsChange> = {
  show: async (db) => showRiskSettings(await readRiskSettings(db)),
  async change(tx, change, actor) {
    const before = await readRiskSettings(tx, { forUpdate: true });
    const after = await changeRiskSettings(tx, before, change);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'settings.set',
        target: 'setting:risk',
        before: showRiskSettings(before),
        after: showRiskSettings(after),
        requestId: actor.requestId,
      });
    }
    return showRiskSettings(after);
  },
};
