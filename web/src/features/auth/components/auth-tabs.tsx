import { useTranslation } from 'react-i18next';
import type { FormData, FormName } from '../../../lib/form-dialog';

interface AuthTabsProps {
  active: 'login' | 'register';
  show: (name: FormName, data?: FormData) => void;
  /** Carried over to the other tab, so a typed username is not lost. */
  username: string;
}

const TABS = ['login', 'register'] as const;

/**
 * The Login / Register switch at the top of the login dialog; each tab is its own registered form.
 * The same segmented control as the Add page's (app/styles.css `.segmented`), not antd-mobile's Tabs.
 */
export function AuthTabs({ active, show, username }: AuthTabsProps) {
  const { t } = useTranslation('auth');
  return (
    <div className="segmented radius-10 auth-tabs" role="tablist">
      {TABS.map((key) => (
        <button
          key={key}
          type="button"
          role="tab"
          className="segmented-option muted text-14 text-center"
          aria-selected={key === active}
          onClick={() => key !== active && show(key, { username })}
        >
          {t(`tabs.${key}`)}
        </button>
      ))}
    </div>
  );
}
