import { type RiskReasonKey, WITHDRAWAL_STATES, type WithdrawalState } from '@kamai/contract';
import { DatePicker, InputNumber, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { type QueueUrl, RISK_REASONS } from '../api/get-withdrawals';
import { reasonLabel } from './risk-cell';
import { stateLabel } from './state-tag';

/**
 * The queue's filters, kept in the URL: state, user, dates, risk, reason and order. Their own chunk
 * (antd's date picker and selects, ~55 kB gzip): fetched with the page on a wide screen, on a phone
 * when the operator opens the filters.
 */
export default function QueueFilters({ url, setUrl }: { url: QueueUrl; setUrl: (next: QueueUrl) => void }) {
  const { t } = useTranslation();
  const state = url.state ?? 'pending';
  return (
    <>
      <Select
        aria-label={t('withdrawals.state')}
        className="field-m"
        allowClear
        placeholder={t('withdrawals.allStates')}
        value={state === 'all' ? undefined : state}
        onChange={(next?: WithdrawalState) => setUrl({ ...url, state: next ?? 'all' })}
        options={WITHDRAWAL_STATES.map((value) => ({ value, label: stateLabel(value) }))}
      />
      <InputNumber
        aria-label={t('withdrawals.userId')}
        placeholder={t('withdrawals.userId')}
        min={1}
        className="field-s"
        value={url.userId}
        onChange={(userId) => setUrl({ ...url, userId: userId ?? undefined })}
      />
      <DatePicker.RangePicker
        aria-label={t('filters.dates')}
        value={[url.from ? dayjs(url.from) : null, url.to ? dayjs(url.to) : null]}
        onChange={(range) =>
          setUrl({ ...url, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })
        }
      />
      <InputNumber
        aria-label={t('withdrawals.minRisk')}
        placeholder={t('withdrawals.minRisk')}
        min={1}
        className="field-s"
        value={url.minRisk}
        onChange={(minRisk) => setUrl({ ...url, minRisk: minRisk ?? undefined })}
      />
      <Select
        aria-label={t('withdrawals.anyReason')}
        className="field-l"
        allowClear
        placeholder={t('withdrawals.anyReason')}
        value={url.reason}
        onChange={(reason?: RiskReasonKey) => setUrl({ ...url, reason })}
        options={RISK_REASONS.map((value) => ({ value, label: reasonLabel(value) }))}
      />
      <Select
        aria-label={t('withdrawals.sortRisk')}
        className="field-m"
        value={url.sort ?? 'queue'}
        onChange={(sort: 'queue' | 'risk') => setUrl({ ...url, sort: sort === 'queue' ? undefined : sort })}
        options={[
          { value: 'queue', label: t('withdrawals.sortQueue') },
          { value: 'risk', label: t('withdrawals.sortRisk') },
        ]}
      />
    </>
  );
}
