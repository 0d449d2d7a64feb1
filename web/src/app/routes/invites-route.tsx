import { InvitePage } from '../../features/referrals';
import { useUserDetail } from '../../features/users';
import { QueryProvider } from '../../lib/query-client';

/** The referrals feature's invite list, given the caller's invite code from the users feature. */
function Invites() {
  const user = useUserDetail();
  return <InvitePage inviteCode={user.data?.inviteCode} />;
}

export default function InvitesRoute() {
  return (
    <QueryProvider>
      <Invites />
    </QueryProvider>
  );
}
