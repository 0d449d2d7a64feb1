import type { ConfirmProps } from './dialog-show';

export type { ConfirmProps };

/**
 * A confirmation dialog in the app's own dialog look (lib/dialog-show.tsx: CenterPopup, its mask and
 * animation, the React 19 render adapter), fetched on first use: a confirmation always follows a tap, so
 * no page waits for it (My shows the logout button, which asks before logging out). Not antd-mobile's
 * Dialog, whose stylesheet (1.5 KB) only this used.
 */
export const Dialog = {
  async confirm(props: ConfirmProps): Promise<boolean> {
    const { confirm } = await import('./dialog-show');
    return confirm(props);
  },
};
