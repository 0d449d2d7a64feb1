import { adminSettingsSetBody, type RouteBodyParsed, type RouteData } from '@kamai/contract';
import type { Db, Executor, Tx } from '../db/client';
import {
  apiShape,
  type ControlKind,
  type ControlValue,
  diffControl,
  onlyTightens,
  pickLike,
  proposeChange,
  type Tighter,
} from './control-changes';
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

/**
 * The fields whose change only tightens a control, and which way (docs/decisions/dual-control.md): a
 * lower four-eyes threshold or withdrawal limit, a higher risk weight or name-match minimum. Any other
 * change of the page is proposed for a second admin.
 */
const TIGHTER: Record<string, Tighter> = {
  'risk.secondApprovalAbove': 'lower',
  'risk.creditApprovalAbove': 'lower',
  'withdrawal.max': 'lower',
  'withdrawal.dailyCount': 'lower',
  'withdrawal.dailyTotal': 'lower',
  'accountValidation.nameMatchMin': 'higher',
};
const tighter = (field: string) => TIGHTER[field] ?? (field.startsWith('risk.weights.') ? 'higher' : undefined);

/** Thrown inside the savepoint that tries a proposal, to roll the trial back. */
const TRIAL = Symbol('settings trial');

/** The settings page: every part read together, and changed together in one transaction. */
export function createSettingsService({ db, now, sections }: { db: Db; now: () => Date; sections: SettingsSections }) {
  async function show(ex: Executor): Promise<Shown> {
    return {
      withdrawal: await sections.withdrawal.show(ex),
      risk: await sections.risk.show(ex),
      accountValidation: await sections.accountValidation.show(ex),
    };
  }

  async function write(tx: Tx, input: Change, actor: Actor): Promise<Shown> {
    // Risk, withdrawal, then account checks: the rows are always locked in this order.
    const risk = await sections.risk.change(tx, input.risk, actor);
    const withdrawal = await sections.withdrawal.change(tx, input.withdrawal, actor);
    const accountValidation = await sections.accountValidation.change(tx, input.accountValidation, actor);
    return { withdrawal, risk, accountValidation };
  }

  /**
   * A change that only tightens (or changes nothing) is written at once; any other is checked by
   * writing it in a savepoint that is rolled back (the sections' own rules refuse a bad one now, not
   * at apply), then proposed for a second admin with the fields it changes.
   */
  async function set(actor: Actor, input: Change) {
    return db.transaction(async (tx) => {
      const diff = diffControl(await show(tx), apiShape(input) as ControlValue);
      if (onlyTightens(diff, tighter)) return { ...(await write(tx, input, actor)), change: null };
      await tx
        .transaction(async (trial) => {
          await write(trial, input, actor);
          throw TRIAL;
        })
        .catch((error: unknown) => {
          if (error !== TRIAL) throw error;
        });
      const change = await proposeChange(tx, now(), actor, { kind: 'settings', target: 'setting:settings', ...diff });
      return { ...(await show(tx)), change };
    });
  }

  /** Dual control of the page: the current values of a proposal's fields, and its apply. */
  const control: ControlKind = {
    current: async (tx, change) => pickLike(await show(tx), change.oldValue),
    apply: async (tx, change, actor) => void (await write(tx, adminSettingsSetBody.parse(change.newValue), actor)),
  };

  return { get: () => show(db), set, control };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
