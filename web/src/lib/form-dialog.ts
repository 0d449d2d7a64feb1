import type { ComponentType } from 'react';
import { useSyncExternalStore } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/** Names of the forms the global dialog can show; the app's form registry maps each to its module. */
export const FORM_NAMES = [
  'login',
  'register',
  'resetPassword',
  'changePassword',
  'rebind',
  'payoutAccount',
  'withdraw',
  'taskProof',
  'deleteAccount',
] as const;
export type FormName = (typeof FORM_NAMES)[number];
export type FormData = Record<string, unknown>;

/** What a successful post tells the dialog: the text for the success toast, and optionally a form to show next. */
export interface PostOutcome {
  message: string;
  next?: { name: FormName; data?: FormData };
  /** For a form with a `Done` screen: what it shows (the request's answer) in place of the toast. */
  done?: unknown;
}

/**
 * A step between the form and the post: Confirm first shows `Body` with the parsed values (what will
 * happen, in figures), and only its own Confirm posts them; Back returns to the fields as typed.
 */
export interface FormReview<TParsed> {
  /** Checks the values before the review shows; throws an ApiError (with `fields`) for a sure refusal. */
  useCheck?: () => (values: TParsed) => void;
  Body: ComponentType<{ values: TParsed }>;
}

export interface FormFieldsProps<TValues extends FieldValues, TParsed> {
  form: UseFormReturn<TValues, unknown, TParsed>;
  /** Switches the dialog to another form (the login/register tabs, "forgot password"). */
  show: (name: FormName, data?: FormData) => void;
}

/** The lazily loaded half of a form: its rules (a contract schema), initial data, fields and post action. */
export interface FormModule<TValues extends FieldValues, TParsed> {
  schema: z.ZodType<TParsed, TValues>;
  defaultValues: TValues;
  Fields: ComponentType<FormFieldsProps<TValues, TParsed>>;
  /** A hook, so the post action can use mutation hooks; returns the action. */
  usePost: () => (values: TParsed) => Promise<PostOutcome>;
  review?: FormReview<TParsed>;
  /** The Confirm button's own label (an i18n key with its namespace) and colour: red for what cannot be undone. */
  confirm?: { labelKey: string; danger?: boolean };
  /** Shown after a successful post that answered `done`, until the user closes the dialog. */
  Done?: ComponentType<{ result: unknown }>;
}

export interface FormDialogState {
  name: FormName | null;
  data?: FormData;
  title?: string;
  visible: boolean;
  /** Changes on every show, so the form remounts with fresh data. */
  serial: number;
}

let state: FormDialogState = { name: null, visible: false, serial: 0 };
const listeners = new Set<() => void>();

function update(next: FormDialogState): void {
  state = next;
  for (const listener of listeners) listener();
}

function isFormName(name: string): name is FormName {
  return (FORM_NAMES as readonly string[]).includes(name);
}

/** Shows the named form filled from `data` (else its initial data), optionally under another title. Unknown names are ignored. */
export function showForm(name: FormName, data?: FormData, title?: string): void {
  if (!isFormName(name)) return;
  update({ name, data, title, visible: true, serial: state.serial + 1 });
}

export function hideForm(): void {
  if (state.visible) update({ ...state, visible: false });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useFormDialogState(): FormDialogState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

export type AnyFormModule = FormModule<FieldValues, unknown>;

/** The dialog treats every form alike; each module is type-checked against its own values where it is defined. */
export function anyForm<TValues extends FieldValues, TParsed>(module: FormModule<TValues, TParsed>): AnyFormModule {
  return module as unknown as AnyFormModule;
}
