import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../lib/dialog';
import { toastSuccess } from '../../../lib/toast';
import { useLogout } from '../api/logout';

/** Ends the session after the user confirms; the page then shows its logged-out state. `beforeLogout` runs while still signed in. */
export function LogoutButton({ beforeLogout }: { beforeLogout?: () => Promise<void> }) {
  const { t } = useTranslation('users');
  const logout = useLogout();
  return (
    <Button
      block
      shape="rounded"
      className="logout-button"
      loading={logout.isPending}
      onClick={() =>
        void Dialog.confirm({
          title: t('logoutConfirm.title'),
          content: t('logoutConfirm.text'),
          confirmText: t('logoutConfirm.confirm'),
          cancelText: t('logoutConfirm.cancel'),
          onConfirm: async () => {
            await beforeLogout?.();
            logout.mutate(undefined, {
              onSuccess: ({ message }) => toastSuccess(message),
            });
          },
        })
      }
    >
      {t('logout')}
    </Button>
  );
}
