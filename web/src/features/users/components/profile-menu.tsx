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
import { paths } from '../../../config/paths';
import type { en } from '../../../i18n/resources';
import { showForm } from '../../../lib/form-dialog';
import { Link } from '../../../lib/router';

/** A screen's one name (`common:screens`); the menu row that opens it shows that name and no other. */
export type ScreenKey = keyof (typeof en)['common']['screens'];
/** What a row does that is not a screen: a dialog form or a download. */
export type ActionKey = Exclude<keyof (typeof en)['users']['entries'], 'label'>;
export type EntryKey = ScreenKey | ActionKey;

export type Entry =
  | { key: ScreenKey; icon: ReactNode; screen: true }
  | { key: ActionKey; icon: ReactNode; screen: false; onClick?: () => void; action?: 'downloadData' };

/** "Download my data": the account feature's download, fetched on first use. */
async function downloadData(done: string) {
  const { downloadMyData } = await import('../../account');
  await downloadMyData(done);
}

const screen = (key: ScreenKey, icon: ReactNode): Entry => ({ key, icon, screen: true });

/** The account entries of spec section 2, in its order. A screen's row links to `paths[key]`. */
export const entries: Entry[] = [
  { key: 'changePassword', icon: <LockOutline />, screen: false, onClick: () => showForm('changePassword') },
  screen('notices', <BellOutline />),
  screen('invites', <TeamOutline />),
  screen('income', <HistogramOutline />),
  screen('reviews', <CheckShieldOutline />),
  screen('payoutMethods', <BankcardOutline />),
  { key: 'withdraw', icon: <ArrowDownCircleOutline />, screen: false, onClick: () => showForm('withdraw') },
  screen('onlineAccounts', <LinkOutline />),
  screen('survey', <QuestionCircleOutline />),
  screen('intro', <InformationCircleOutline />),
  screen('help', <QuestionCircleOutline />),
  screen('terms', <FileOutline />),
  screen('privacy', <CheckShieldOutline />),
  { key: 'downloadData', icon: <FolderOutline />, screen: false, action: 'downloadData' },
  { key: 'deleteAccount', icon: <DeleteOutline />, screen: false, onClick: () => showForm('deleteAccount') },
];

/** The key of a row's text: a screen's name, or the action's own text. */
export function entryTextKey(entry: Entry): `common:screens.${ScreenKey}` | `users:entries.${ActionKey}` {
  return entry.screen ? `common:screens.${entry.key}` : `users:entries.${entry.key}`;
}

/** `badges`: something to show on an entry, from another feature (the unread count of notices). */
export function ProfileMenu({ badges }: { badges?: Partial<Record<EntryKey, ReactNode>> }) {
  const { t } = useTranslation(['users', 'common']);
  return (
    <nav className="card menu" aria-label={t('entries.label')}>
      <ul className="plain-list divided">
        {entries.map((entry) => {
          const content = (
            <>
              <span className="menu-icon flex primary" aria-hidden>
                {entry.icon}
              </span>
              <span className="menu-text">{t(entryTextKey(entry))}</span>
              {badges?.[entry.key]}
              <RightOutline className="menu-arrow" aria-hidden />
            </>
          );
          return (
            <li key={entry.key}>
              {entry.screen ? (
                <Link className="menu-row row text-15" to={paths[entry.key]}>
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
