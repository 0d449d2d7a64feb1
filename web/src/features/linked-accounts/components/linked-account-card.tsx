import { type LinkedAccountItem, parseRupees } from '@kamai/contract';
import { formatMoney, PHONE_COUNTRY_CODE } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { Dialog } from '../../../lib/dialog';
import '../../../i18n/errors';
import { messageOf } from '../../../lib/api';
import { showForm } from '../../../lib/form-dialog';
import { formatDateTime, formatTime } from '../../../lib/format-date';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useNow } from '../../../lib/use-now';
import { useLogoutLinked } from '../api/logout-linked';
import { useSettleLinked } from '../api/settle-linked';
import { formatLinkedPhone } from '../format';
import { useFormatDuration } from './duration';
import { LinkedLog } from './linked-log';
import { StatusTag } from './status-tag';

/** What settling now would pay: the server's rule, floor(seconds × hourly paise / 3600). */
function estimatePaise(seconds: number, hourlyRate: string): bigint {
  const rate = parseRupees(hourlyRate) ?? 0n;
  return (BigInt(Math.max(0, Math.floor(seconds))) * rate) / 3600n;
}

interface CardProps {
  item: LinkedAccountItem;
  /** When the list was fetched (ms): an Online account's time keeps counting from there. */
  fetchedAt: number;
  /** Rupees per online hour, as the list reports it. */
  hourlyRate: string;
}

/** One linked number (/List5): status, times, earnings, and settle, re-bind, log out, log. */
export function LinkedAccountCard({ item, fetchedAt, hourlyRate }: CardProps) {
  const { t } = useTranslation(['linked', 'errors']);
  const locale = currentLocale();
  const duration = useFormatDuration();
  const settle = useSettleLinked();
  const logout = useLogoutLinked();
  const [logOpen, setLogOpen] = useState(false);
  const logId = useId();
  const online = item.status === 'online';
  const now = useNow(online);
  const running = online ? Math.max(0, Math.floor((now - fetchedAt) / 1000)) : 0;
  const unsettled = item.unsettledSeconds + running;
  const waitUntil = item.settleAvailableAt ? Date.parse(item.settleAvailableAt) : 0;
  const payable = estimatePaise(unsettled, hourlyRate);
  // Less than a paisa is nothing to settle (the server keeps the time for later).
  const canSettle = payable >= 1n && waitUntil <= now;
  const phone = formatLinkedPhone(item.phone);

  const onSettle = async () => {
    try {
      const res = await settle.mutateAsync(item.phone);
      toastSuccess(t('accounts.settled', { message: res.message, amount: formatMoney(res.data.amount, locale) }));
    } catch (error) {
      toastError(messageOf(error));
    }
  };
  const onLogout = () => {
    void Dialog.confirm({
      title: t('accounts.logoutTitle', { phone }),
      content: t('accounts.logoutText'),
      confirmText: t('accounts.logoutConfirm'),
      cancelText: t('accounts.logoutCancel'),
      onConfirm: async () => {
        try {
          toastSuccess((await logout.mutateAsync(item.phone)).message);
        } catch (error) {
          toastError(messageOf(error));
        }
      },
    });
  };

  return (
    <article className="stack card account-card" aria-label={phone}>
      <header className="account-card-head row space-between flex-wrap">
        <h2 className="account-card-phone tabular bold">{phone}</h2>
        <span className="account-card-tags flex flex-wrap">
          {item.pairingPending && (
            <Tag color="warning" fill="outline" round>
              {t('errors:rebinding')}
            </Tag>
          )}
          <StatusTag status={item.status} />
        </span>
      </header>
      <dl className="account-card-facts">
        <div>
          <dt className="muted text-12">{t('accounts.onlineTime')}</dt>
          <dd className="semibold tabular text-15">{duration(item.onlineSeconds + running)}</dd>
        </div>
        <div>
          <dt className="muted text-12">{t('accounts.earnings')}</dt>
          <dd className="primary semibold tabular text-15">{formatMoney(item.earnings, locale)}</dd>
        </div>
        <div>
          <dt className="muted text-12">{t('accounts.unsettled')}</dt>
          <dd className="semibold tabular text-15">
            {duration(unsettled)}
            {payable > 0n && (
              <span className="account-card-estimate muted text-13"> ≈ {formatMoney(payable, locale)}</span>
            )}
          </dd>
        </div>
        <div>
          <dt className="muted text-12">{t('accounts.linkedAt')}</dt>
          <dd className="semibold tabular text-15">
            <time dateTime={item.linkedAt}>{formatDateTime(item.linkedAt, locale)}</time>
          </dd>
        </div>
      </dl>
      {waitUntil > now && (
        <p className="account-card-note muted text-12">
          {t('accounts.settleAt', { time: formatTime(item.settleAvailableAt ?? '', locale) })}
        </p>
      )}
      <div className="account-card-actions flex flex-wrap">
        <Button
          size="small"
          shape="rounded"
          color="primary"
          disabled={!canSettle}
          loading={settle.isPending}
          onClick={onSettle}
        >
          {t('accounts.settle')}
        </Button>
        <Button
          size="small"
          shape="rounded"
          color="primary"
          fill="outline"
          onClick={() => showForm('rebind', { phone: item.phone.slice(PHONE_COUNTRY_CODE.length) })}
        >
          {t('accounts.rebind')}
        </Button>
        <Button
          size="small"
          shape="rounded"
          disabled={item.status === 'to_login'}
          loading={logout.isPending}
          onClick={onLogout}
        >
          {t('accounts.logout')}
        </Button>
      </div>
      <button
        type="button"
        className="link-button primary account-card-log-toggle"
        aria-expanded={logOpen}
        aria-controls={logId}
        onClick={() => setLogOpen((open) => !open)}
      >
        {logOpen ? t('accounts.hideLog') : t('accounts.showLog')}
      </button>
      {logOpen && <LinkedLog phone={item.phone} id={logId} />}
    </article>
  );
}
