import { LogoutButton } from '../../features/auth';
import { UnreadBadge } from '../../features/notices';
import { ProfilePage } from '../../features/users';

/** The My tab: the users feature's profile, the auth feature's logout at its foot, the notices' unread count. */
export default function UserTab() {
  return <ProfilePage footer={<LogoutButton />} badges={{ notices: <UnreadBadge /> }} />;
}
