import { LogoutButton } from '../../features/auth';
// By path, not through the feature's index: the index also exports the inbox page, whose texts hold
// all six message catalogues and contract's schemas (~45 KB gzip) that My does not show.
import { UnreadBadge } from '../../features/notices/components/unread-badge';
import { disablePush, PushSwitch } from '../../features/push';
import { ProfilePage } from '../../features/users';

/**
 * The My tab: the users feature's profile, the push switch and the auth feature's logout at its foot
 * (logging out stops this device's pushes first: the next person to use it must not get them), the
 * notices' unread count.
 */
async function forgetThisDevice() {
  await disablePush().catch(() => undefined);
}

export default function UserTab() {
  return (
    <ProfilePage
      footer={
        <>
          <PushSwitch />
          <LogoutButton beforeLogout={forgetThisDevice} />
        </>
      }
      badges={{ notices: <UnreadBadge /> }}
    />
  );
}
