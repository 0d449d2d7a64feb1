import type { RouteBodyParsed, RouteData } from '@kamai/contract';
import type { Db, Executor, Tx } from '../db/client';
import type { Actor } from './routes';

/**
 * One part of the operator's settings page, kept by the feature whose rules use it (the withdrawal
 * limits by withdrawals, the risk settings by fraud, the account checks by payout-accounts). Platform code imports no feature, so app.ts hands
 * the parts in.
 */
export interface SettingsSection<Shown, Change> {
  /** The stored values as the console shows them. */
  show(db: Executor): Promise<Shown>;
  /** Locks the row, applies the change (fields left out stay), audits it and answers what is stored now. */
  change(tx: Tx, change: Change, actor: Actor): Promise<Shown>;
}

type Shown = RouteData<'adminSettingsGet'>;
type Change = RouteBodyParsed<'adminSettingsSet'>;
export type SettingsSections = { [K in keyof Shown & keyof Change]: SettingsSection<Shown[K], Change[K]> };

/** The settings page: every part read together, and changed together in one transaction. */
export function createSettingsService({ db, sections }: { db: Db; sections: SettingsSections }) {
  async function get(): Promise<Shown> {
    return {
      withdrawal: await sections.withdrawal.show(db),
      risk: await sections.risk.show(db),
      accountValidation: await sections.accountValidation.show(db),
    };
  }

  async function set(actor: Actor, input: Change): Promise<Shown> {
    return db.transaction(async (tx) => {
      // Risk, withdrawal, then account checks: the rows are always locked in this order.
      const risk = await sections.risk.change(tx, input.risk, actor);
      const withdrawal = await sections.withdrawal.change(tx, input.withdrawal, actor);
      const accountValidation = await sections.accountValidation.change(tx, input.accountValidation, actor);
      return { withdrawal, risk, accountValidation };
    });
  }

  return { get, set };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
