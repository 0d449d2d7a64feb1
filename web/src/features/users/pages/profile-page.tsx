import type { UserDetail } from '@kamai/contract';
import { formatMoney, normalizePhone } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { useUserDetail } from '../api/get-user-detail';
import { InviteCode } from '../components/invite-code';
import { type EntryKey, ProfileMenu } from '../components/profile-menu';

/** Phones are stored as 91XXXXXXXXXX; shown in international form (+91XXXXXXXXXX). */
function displayName(username: string): string {
  return normalizePhone(username) === username ? `+${username}` : username;
}

function ProfileCard({ user }: { user: UserDetail }) {
  const { t } = useTranslation('users');
  const name = displayName(user.username);
  return (
    <section className="hero-card profile-card" aria-label={name}>
      <div className="profile-card-top row">
        <span className="profile-avatar row bold flex-none" aria-hidden>
          {name.replace(/^\+/, '').charAt(0).toUpperCase()}
        </span>
        <div className="profile-identity">
          <p className="profile-name ellipsis bold">{name}</p>
          <InviteCode code={user.inviteCode} />
        </div>
      </div>
      <div className="stack profile-balance">
        <span className="profile-balance-label text-13">{t('balance')}</span>
        <span className="profile-balance-value tabular bold">{formatMoney(user.balance, currentLocale())}</span>
      </div>
    </section>
  );
}

interface ProfilePageProps {
  footer?: ReactNode;
  /** Shown on menu entries, e.g. the unread count on System notices. */
  badges?: Partial<Record<EntryKey, ReactNode>>;
}

export function ProfilePage({ footer, badges }: ProfilePageProps) {
  const { t } = useTranslation(['common', 'users']);
  const user = useUserDetail();
  return (
    <div className="stack profile-page">
      {user.data ? (
        <ProfileCard user={user.data} />
      ) : (
        <section className="hero-card profile-card profile-card-status row text-center" aria-busy={user.isPending}>
          {user.isError ? (
            <>
              <p>{t('users:loadFailed')}</p>
              <Button size="small" shape="rounded" onClick={() => void user.refetch()}>
                {t('request.retry')}
              </Button>
            </>
          ) : (
            <DotLoading color="white" />
          )}
        </section>
      )}
      <ProfileMenu badges={badges} />
      {footer}
    </div>
  );
}
