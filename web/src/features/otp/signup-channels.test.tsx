import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { hideForm, showForm } from '../../lib/form-dialog';
import { queryClient } from '../../lib/query-client';
import { otpChannelsKey } from './api/get-otp-channels';

/**
 * The sign-up and reset forms offer only the channels the server names (GET …/otp/channels, its
 * SIGNUP_CHANNELS), filled here as the server answers; the server's own refusal is tested in
 * server/test/signup-channels.test.ts.
 */
let FormDialog: ComponentType;
beforeAll(async () => {
  await initI18n();
  FormDialog = (await import('../../app/form-dialog/form-dialog')).default;
});
afterEach(() => {
  act(() => hideForm());
  cleanup();
  queryClient.clear();
});

async function open(form: 'register' | 'resetPassword', name: string, field: string) {
  render(<FormDialog />);
  act(() => showForm(form));
  const dialog = await screen.findByRole('dialog', { name });
  await within(dialog).findByLabelText(field, {}, { timeout: 30_000 });
  return dialog;
}

function typeInto(dialog: HTMLElement, label: string, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

describe('sign-up channels', () => {
  it('an e-mail-only service asks for an e-mail and keeps Send code off for a phone number, saying why', async () => {
    queryClient.setQueryData(otpChannelsKey, { channels: ['email'] });
    const dialog = await open('register', 'Welcome to Kamai', 'E-mail address');
    // The field asks for the one channel in use: no switch to a mobile number.
    expect(within(dialog).queryByRole('button', { name: 'Use a mobile number instead' })).toBeNull();
    typeInto(dialog, 'E-mail address', '9812345678');
    expect(
      await within(dialog).findByText('Codes are sent by e-mail only here; enter your e-mail address'),
    ).toBeTruthy();
    const button = within(dialog).getByRole('button', { name: 'Send code' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    typeInto(dialog, 'E-mail address', 'ravi@example.in');
    expect((within(dialog).getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a phone-only service labels the reset field as a mobile number and refuses an e-mail', async () => {
    queryClient.setQueryData(otpChannelsKey, { channels: ['sms'] });
    const dialog = await open('resetPassword', 'Reset password', 'Mobile number');
    typeInto(dialog, 'Mobile number', 'ravi@example.in');
    expect(await within(dialog).findByText('Codes are sent by SMS only here; enter your mobile number')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('with both channels the field takes a phone or an e-mail', async () => {
    queryClient.setQueryData(otpChannelsKey, { channels: ['sms', 'email'] });
    const dialog = await open('register', 'Welcome to Kamai', 'Mobile number');
    expect(within(dialog).getByRole('button', { name: 'Use an e-mail address instead' })).toBeTruthy();
    typeInto(dialog, 'Mobile number', '9812345678');
    expect((within(dialog).getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
