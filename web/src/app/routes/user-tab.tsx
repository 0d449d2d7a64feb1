import { LogoutButton } from '../../features/auth';
import { UnreadBadge } from '../../features/notices';
import { disablePush, PushSwitch } from '../../features/push';
import { ProfilePage } from '../../features/users';
import { QueryProvider } from '../../lib/query-client';

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
    <QueryProvider>
      <ProfilePage
        footer={
          <>
            <PushSwitch />
            <LogoutButton beforeLogout={forgetThisDevice} />
          </>
        }
        badges={{ notices: <UnreadBadge /> }}
      />
    </QueryProvider>
  );
}
