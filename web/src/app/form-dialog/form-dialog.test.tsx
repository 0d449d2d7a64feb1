import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { hideForm, showForm } from '../../lib/form-dialog';

// Loaded after i18n starts, as the app does (the dialog's module adds the error texts to it).
let FormDialog: ComponentType;
beforeAll(async () => {
  await initI18n();
  FormDialog = (await import('./form-dialog')).default;
});
afterEach(() => {
  act(() => hideForm());
  cleanup();
});

describe('the form dialog', () => {
  it('shows the named form under its title once its module has loaded, filled from the data it was given', async () => {
    render(<FormDialog />);
    act(() => showForm('resetPassword', { username: '9876543210', unknownField: 'x' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    const username = (await within(dialog).findByLabelText(
      'Mobile number',
      {},
      { timeout: 30_000 },
    )) as HTMLInputElement;
    expect(username.value).toBe('9876543210');
    expect((within(dialog).getByLabelText('New password') as HTMLInputElement).value).toBe('');
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeTruthy();
  });

  it('remounts with fresh data on the next show, and closes on hide', async () => {
    render(<FormDialog />);
    act(() => showForm('resetPassword', { username: 'first@example.com' }));
    const first = (await screen.findByLabelText('E-mail address', {}, { timeout: 30_000 })) as HTMLInputElement;
    expect(first.value).toBe('first@example.com');
    act(() => showForm('resetPassword', { username: 'second@example.com' }));
    // Polled: until the remount lands, the old field (with the old value) is still the one found.
    await expect
      .poll(() => (screen.queryByLabelText('E-mail address') as HTMLInputElement | null)?.value, {
        timeout: 30_000,
      })
      .toBe('second@example.com');
    act(() => hideForm());
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Reset password' }), { timeout: 30_000 }).toBeNull();
  });
});
