import {
  ArrowDownCircleOutline,
  BankcardOutline,
  BellOutline,
  CheckShieldOutline,
  DeleteOutline,
  FileOutline,
  FolderOutline,
  HistogramOutline,
  InformationCircleOutline,
  LinkOutline,
  LockOutline,
  QuestionCircleOutline,
  RightOutline,
  TeamOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppPath, paths } from '../../../config/paths';
import type { en } from '../../../i18n/resources';
import { showForm } from '../../../lib/form-dialog';
import { Link } from '../../../lib/router';

export type EntryKey = Exclude<keyof (typeof en)['users']['entries'], 'label'>;

interface Entry {
  key: EntryKey;
  icon: ReactNode;
  /** A page or a dialog form. */
  to?: AppPath;
  onClick?: () => void;
  /** An action that needs the translated texts. */
  action?: 'downloadData';
}

/** "Download my data": the account feature's download, fetched on first use. */
async function downloadData(done: string) {
  const { downloadMyData } = await import('../../account');
  await downloadMyData(done);
}

/** The account entries of spec section 2, in its order. */
const entries: Entry[] = [
  { key: 'changePassword', icon: <LockOutline />, onClick: () => showForm('changePassword') },
  { key: 'notices', icon: <BellOutline />, to: paths.notices },
  { key: 'referrals', icon: <TeamOutline />, to: paths.invites },
  { key: 'income', icon: <HistogramOutline />, to: paths.income },
  { key: 'reviews', icon: <CheckShieldOutline />, to: paths.reviews },
  { key: 'payoutMethods', icon: <BankcardOutline />, to: paths.payoutMethods },
  { key: 'withdraw', icon: <ArrowDownCircleOutline />, onClick: () => showForm('withdraw') },
  { key: 'onlineAccounts', icon: <LinkOutline />, to: paths.onlineAccounts },
  { key: 'survey', icon: <QuestionCircleOutline />, to: paths.survey },
  { key: 'intro', icon: <InformationCircleOutline />, to: paths.intro },
  { key: 'help', icon: <QuestionCircleOutline />, to: paths.help },
  { key: 'terms', icon: <FileOutline />, to: paths.terms },
  { key: 'privacy', icon: <CheckShieldOutline />, to: paths.privacy },
  { key: 'downloadData', icon: <FolderOutline />, action: 'downloadData' },
  { key: 'deleteAccount', icon: <DeleteOutline />, onClick: () => showForm('deleteAccount') },
];

/** `badges`: something to show on an entry, from another feature (the unread count of notices). */
export function ProfileMenu({ badges }: { badges?: Partial<Record<EntryKey, ReactNode>> }) {
  const { t } = useTranslation('users');
  return (
    <nav className="card menu" aria-label={t('entries.label')}>
      <ul className="plain-list">
        {entries.map((entry) => {
          const content = (
            <>
              <span className="menu-icon" aria-hidden>
                {entry.icon}
              </span>
              <span className="menu-text">{t(`entries.${entry.key}`)}</span>
              {badges?.[entry.key]}
              <RightOutline className="menu-arrow" aria-hidden />
            </>
          );
          return (
            <li key={entry.key}>
              {entry.to ? (
                <Link className="menu-row row text-15" to={entry.to}>
                  {content}
                </Link>
              ) : (
                <button
                  type="button"
                  className="menu-row row text-15"
                  onClick={
                    entry.action === 'downloadData' ? () => void downloadData(t('downloadData.done')) : entry.onClick
                  }
                >
                  {content}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
