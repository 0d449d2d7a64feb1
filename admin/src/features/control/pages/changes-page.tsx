import { CONTROL_CHANGE_STATES, type ControlChangeItem, type ControlChangeState, isMessageKey } from '@kamai/contract';
import { Alert, Button, Card, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { catalogueText } from '../../../i18n';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useCan, useMe } from '../../../lib/roles';
import { useUrlFilters } from '../../../lib/url-filters';
import { useControlChanges, useDecideChange } from '../api/control';

const FILTERS = { state: [...CONTROL_CHANGE_STATES, 'all'] } as const;
const COLORS: Record<ControlChangeState, string> = {
  pending: 'gold',
  applied: 'green',
  cancelled: 'default',
  expired: 'volcano',
};
/** Each changeable field's label, from the page where it is set. */
const LABELS: Record<string, string> = {
  'withdrawal.min': 'settings.min',
  'withdrawal.max': 'settings.max',
  'withdrawal.dailyCount': 'settings.dailyCount',
  'withdrawal.dailyTotal': 'settings.dailyTotal',
  'withdrawal.fee': 'settings.fee',
  'withdrawal.payoutHours': 'settings.payoutHours',
  'risk.idleInvitees': 'settings.idleInvitees',
  'risk.inviteShareBps': 'settings.inviteShare',
  'risk.quickWithdrawalHours': 'settings.quickHours',
  'risk.secondApprovalAbove': 'settings.secondApproval',
  'risk.creditApprovalAbove': 'settings.creditApproval',
  'risk.qualifiedInvite': 'settings.qualifiedInvite',
  'accountValidation.dailyLimit': 'settings.checksPerDay',
  'accountValidation.fee': 'settings.checkFee',
  'accountValidation.nameMatchMin': 'settings.nameMatchMin',
  level1Bps: 'settings.level1',
  level2Bps: 'settings.level2',
  holdDays: 'control.field.holdDays',
  hourlyRate: 'settings.hourlyRate',
  role: 'users.role',
  frozen: 'control.field.frozen',
};
const AMOUNTS = new Set([
  'withdrawal.min',
  'withdrawal.max',
  'withdrawal.dailyTotal',
  'withdrawal.fee',
  'risk.secondApprovalAbove',
  'risk.creditApprovalAbove',
  'accountValidation.fee',
  'hourlyRate',
]);

function label(t: TFunction, field: string) {
  const signal = `risk_${field.slice('risk.weights.'.length)}`;
  if (field.startsWith('risk.weights.') && isMessageKey(signal)) return catalogueText(signal);
  return LABELS[field] ? t(LABELS[field]) : field;
}

function shown(t: TFunction, field: string, value: string) {
  if (AMOUNTS.has(field)) return rupees(value);
  if (field === 'role') return t(`roles.${value}`);
  if (field === 'frozen') return value === 'true' ? t('actions.yes') : t('actions.no');
  if (field === 'risk.qualifiedInvite') return t(`settings.qualified.${value}`);
  return value;
}

/**
 * Changes that weaken a control wait here for a second admin (docs/decisions/dual-control.md).
 * The proposer sees Apply disabled with the reason, unless they are the only admin and the delay
 * has passed; the server refuses the same.
 */
export default function ChangesPage() {
  const { t } = useTranslation();
  const me = useMe();
  const can = useCan();
  const [url, setUrl] = useUrlFilters(FILTERS);
  const chosen = url.state ?? 'pending';
  const state = chosen === 'all' ? undefined : chosen;
  const pages = useCursorPages(String(state));
  const list = useControlChanges(state, pages.cursor);
  const decide = useDecideChange();

  /** Why `me` may not apply the change, if so. */
  function blocked(row: ControlChangeItem): string | undefined {
    if (row.target === `user:${me.id}`) return t('control.aboutYou');
    if (row.proposedBy !== me.id) return undefined;
    if (!row.singleAdmin) return t('control.ownWait');
    if (Date.now() < Date.parse(row.earliestApplyAt))
      return t('control.ownDelay', { time: dateTime(row.earliestApplyAt) });
    return undefined;
  }

  return (
    <Card>
      <Space orientation="vertical" size="middle" className="stack">
        <Alert type="info" showIcon message={t('control.intro')} />
        <Space wrap className="toolbar">
          <Select
            aria-label={t('control.state')}
            className="field-m"
            allowClear
            value={state}
            onChange={(next?: ControlChangeState) => setUrl({ state: next ?? 'all' })}
            options={CONTROL_CHANGE_STATES.map((value) => ({ value, label: t(`control.states.${value}`) }))}
          />
        </Space>
        <DataTable<ControlChangeItem>
          query={list}
          pages={pages}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 60 },
            {
              title: t('control.kind'),
              render: (_, row) => (
                <Space orientation="vertical" size={4}>
                  <span>{t(`control.kinds.${row.kind}`, { user: phoneNumber(row.targetName) })}</span>
                  <Tag color={COLORS[row.state]}>{t(`control.states.${row.state}`)}</Tag>
                  {row.decidedByName && (
                    <Typography.Text type="secondary">
                      {t('control.decidedBy')}: {phoneNumber(row.decidedByName)}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t('control.fields'),
              render: (_, row) => (
                <Space orientation="vertical" size={0}>
                  {row.fields.map((f) => (
                    <span key={f.field}>
                      <Typography.Text type="secondary">{label(t, f.field)}:</Typography.Text>{' '}
                      {shown(t, f.field, f.from)} → <Typography.Text strong>{shown(t, f.field, f.to)}</Typography.Text>
                    </span>
                  ))}
                </Space>
              ),
            },
            {
              title: t('control.proposedBy'),
              render: (_, row) => (
                <Space orientation="vertical" size={0}>
                  <span>
                    {phoneNumber(row.proposedByName)} #{row.proposedBy}
                  </span>
                  <Typography.Text type="secondary">{dateTime(row.createdAt)}</Typography.Text>
                </Space>
              ),
            },
            {
              title: t('control.expires'),
              render: (_, row) => (
                <Space orientation="vertical" size={0}>
                  <span>{dateTime(row.expiresAt)}</span>
                  {row.singleAdmin && row.state === 'pending' && (
                    <Typography.Text type="warning">
                      {t('control.earliest', { time: dateTime(row.earliestApplyAt) })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t('table.actions'),
              render: (_, row) => {
                if (row.state !== 'pending' || !can('adminControlApply')) return null;
                const reason = blocked(row);
                return (
                  <Space>
                    <Tooltip title={reason}>
                      <span>
                        <Popconfirm
                          title={t('control.applyConfirm')}
                          okText={t('control.apply')}
                          cancelText={t('actions.cancel')}
                          disabled={Boolean(reason)}
                          onConfirm={() => decide.mutateAsync({ id: row.id, action: 'apply' }).catch(() => undefined)}
                        >
                          <Button type="primary" size="small" disabled={Boolean(reason)}>
                            {t('control.apply')}
                          </Button>
                        </Popconfirm>
                      </span>
                    </Tooltip>
                    <Popconfirm
                      title={t('control.cancelConfirm')}
                      okText={t('control.cancel')}
                      cancelText={t('actions.cancel')}
                      onConfirm={() => decide.mutateAsync({ id: row.id, action: 'cancel' }).catch(() => undefined)}
                    >
                      <Button danger size="small">
                        {t('control.cancel')}
                      </Button>
                    </Popconfirm>
                  </Space>
                );
              },
            },
          ]}
        />
      </Space>
    </Card>
  );
}
