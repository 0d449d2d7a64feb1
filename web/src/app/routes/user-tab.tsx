import { LogoutButton } from '../../features/auth';
import { ProfilePage } from '../../features/users';
import { QueryProvider } from '../../lib/query-client';

/** The My tab: the users feature's profile, with the auth feature's logout at its foot. */
export default function UserTab() {
  return (
    <QueryProvider>
      <ProfilePage footer={<LogoutButton />} />
    </QueryProvider>
  );
}
