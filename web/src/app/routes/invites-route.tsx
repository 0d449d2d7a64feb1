import { InvitePage } from '../../features/referrals';
import { useUserDetail } from '../../features/users';

/** The referrals feature's invite list, given the caller's invite code from the users feature. */
export default function Invites() {
  const user = useUserDetail();
  return <InvitePage inviteCode={user.data?.inviteCode} />;
}
