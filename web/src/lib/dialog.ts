import type { DialogConfirmProps } from 'antd-mobile/es/components/dialog';

/**
 * antd-mobile's Dialog.confirm, fetched on first use with its mask, animation library and the React 19
 * render adapter (~27 KB gzip): a confirmation always follows a tap, so no page waits for it (My shows
 * the logout button, which asks before logging out).
 */
export const Dialog = {
  async confirm(props: DialogConfirmProps): Promise<boolean> {
    const { default: dialog } = await import('./dialog-show');
    return dialog.confirm(props);
  },
};
