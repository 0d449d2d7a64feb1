import {
  adminCreditReviewBody,
  CREDIT_REQUEST_STATES,
  type CreditRequestItem,
  type CreditRequestState,
  creditTextIn,
} from '@kamai/contract';
import { Button, Card, Form, Input, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { EditDialog } from '../../../components/edit-dialog';
import { currentLocale } from '../../../i18n';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useMe } from '../../../lib/roles';
import { contractRule } from '../../../lib/rules';
import { useUrlFilters } from '../../../lib/url-filters';
import { useCreditRequests, useDecideCredit } from '../api/credit-requests';

const FILTERS = { state: [...CREDIT_REQUEST_STATES, 'all'] } as const;
const COLORS: Record<CreditRequestState, string> = { pending: 'gold', approved: 'green', rejected: 'volcano' };
const reasonSchema = adminCreditReviewBody.shape.reason.refine((v) => v !== '', 'enter_reject_reason');

/**
 * Credits above the threshold wait here for a second admin (four-eyes). The admin who asked for one
 * sees it but cannot decide it; the server refuses that too.
 */
export default function CreditsPage() {
  const { t } = useTranslation();
  const me = useMe();
  const [url, setUrl] = useUrlFilters(FILTERS);
  const chosen = url.state ?? 'pending';
  const state = chosen === 'all' ? undefined : chosen;
  const pages = useCursorPages(String(state));
  const list = useCreditRequests(state, pages.cursor);
  const [rejecting, setRejecting] = useState<CreditRequestItem>();
  const decide = useDecideCredit(() => setRejecting(undefined));
  const [form] = Form.useForm<{ reason: string }>();

  return (
    <Card>
      <Space wrap className="toolbar">
        <Select
          aria-label={t('credits.state')}
          className="field-m"
          allowClear
          value={state}
          onChange={(next?: CreditRequestState) => setUrl({ state: next ?? 'all' })}
          options={CREDIT_REQUEST_STATES.map((value) => ({ value, label: t(`credits.states.${value}`) }))}
        />
      </Space>
      <DataTable<CreditRequestItem>
        query={list}
        pages={pages}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          {
            title: t('credits.user'),
            render: (_, row) => (
              <span>
                {phoneNumber(row.username)} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
              </span>
            ),
          },
          { title: t('credits.amount'), align: 'right', render: (_, row) => rupees(row.amount) },
          { title: t('credits.remark'), dataIndex: 'remark', ellipsis: true },
          {
            title: t('credits.userText'),
            render: (_, row) =>
              row.userText ? creditTextIn(row.userText, currentLocale()) : t('credits.genericLabel'),
          },
          {
            title: t('credits.requestedBy'),
            render: (_, row) => `${row.requestedByName} #${row.requestedBy}`,
          },
          { title: t('credits.requested'), render: (_, row) => dateTime(row.requestedAt) },
          {
            title: t('credits.state'),
            render: (_, row) => (
              <Space direction="vertical" size={0}>
                <Tag color={COLORS[row.state]}>{t(`credits.states.${row.state}`)}</Tag>
                {row.reason && <Typography.Text type="secondary">{row.reason}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.state === 'pending' && row.requestedBy !== me.id && row.userId !== me.id ? (
                <Space>
                  <Popconfirm
                    title={t('credits.approveConfirm', { amount: rupees(row.amount), user: phoneNumber(row.username) })}
                    okText={t('credits.approve')}
                    cancelText={t('actions.cancel')}
                    onConfirm={() => decide.mutateAsync({ id: row.id, action: 'approve' }).catch(() => undefined)}
                  >
                    <Button type="primary" size="small">
                      {t('credits.approve')}
                    </Button>
                  </Popconfirm>
                  <Button danger size="small" onClick={() => setRejecting(row)}>
                    {t('credits.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {rejecting && (
        <EditDialog
          form={form}
          title={t('credits.rejectTitle', { id: rejecting.id })}
          okText={t('credits.reject')}
          danger
          saving={decide.isPending}
          onSave={({ reason }) => decide.mutate({ id: rejecting.id, action: 'reject', reason })}
          onClose={() => setRejecting(undefined)}
        >
          <Form.Item label={t('credits.rejectReason')} name="reason" rules={[contractRule(reasonSchema)]}>
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </EditDialog>
      )}
    </Card>
  );
}
