import {
  ACCOUNT_CHECK_NOTE_MAX,
  ACCOUNT_CHECK_REFUSAL_KEYS,
  ACCOUNT_CHECK_REFUSALS,
  type AccountCheckItem,
  type AccountCheckRefusal,
  type MessageKey,
} from '@kamai/contract';
import { Alert, Button, Card, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { catalogueText } from '../../../i18n';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { usePauseWhile } from '../../../lib/live';
import { useCan, useMe } from '../../../lib/roles';
import { useAccountChecks, useDecideAccountCheck } from '../api/account-checks';

type Action = 'approve' | 'refuse';
const nowrap = () => ({ className: 'nowrap' });
const catalogue = (key: string) => catalogueText(key as MessageKey);

/** Approve (with what was checked) or refuse (with the reason the user reads in their language). */
function DecideDialog({
  item,
  action,
  saving,
  onClose,
  onDecide,
}: {
  item: AccountCheckItem;
  action: Action;
  saving: boolean;
  onClose: () => void;
  onDecide: (values: { reason?: AccountCheckRefusal; note: string }) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason?: AccountCheckRefusal; note?: string }>();
  const second = action === 'approve' && item.approvalsRequired === 2 && item.firstApproverId !== null;
  return (
    <Modal
      open
      title={t(action === 'approve' ? 'accountChecks.approveTitle' : 'accountChecks.refuseTitle', {
        name: item.accountName,
      })}
      okText={t(action === 'approve' ? 'accountChecks.approve' : 'accountChecks.refuse')}
      okButtonProps={{ danger: action === 'refuse', loading: saving }}
      cancelText={t('actions.cancel')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((v) => onDecide({ reason: v.reason, note: v.note ?? '' }))}
    >
      {action === 'approve' && item.approvalsRequired === 2 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t(second ? 'accountChecks.secondApproval' : 'accountChecks.firstApproval')}
        />
      )}
      <Form form={form} layout="vertical">
        {action === 'refuse' && (
          <Form.Item
            label={t('accountChecks.reason')}
            name="reason"
            extra={t('accountChecks.reasonHelp')}
            rules={[{ required: true, message: catalogue('account_check_reason_required') }]}
          >
            <Select
              aria-label={t('accountChecks.reason')}
              options={ACCOUNT_CHECK_REFUSALS.map((value) => ({
                value,
                label: catalogue(ACCOUNT_CHECK_REFUSAL_KEYS[value]),
              }))}
            />
          </Form.Item>
        )}
        <Form.Item label={t('accountChecks.note')} name="note" extra={t('accountChecks.noteHelp')}>
          <Input.TextArea rows={2} maxLength={ACCOUNT_CHECK_NOTE_MAX} showCount aria-label={t('accountChecks.note')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Account checks: payout account numbers RazorpayX could not validate (a current account, test mode,
 * validation switched off) or whose check is overdue. An operator compares the details with the
 * user's documents and approves, or refuses with a reason; above the four-eyes threshold two different
 * operators approve (docs/decisions/account-checks-by-operators.md).
 */
export default function AccountChecksPage() {
  const { t } = useTranslation();
  const can = useCan();
  const me = useMe();
  const pages = useCursorPages('queue');
  const list = useAccountChecks(pages.cursor);
  const [deciding, setDeciding] = useState<{ item: AccountCheckItem; action: Action }>();
  usePauseWhile(deciding !== undefined);
  const decide = useDecideAccountCheck(() => setDeciding(undefined));

  return (
    <Card>
      <Typography.Paragraph type="secondary">{t('accountChecks.intro')}</Typography.Paragraph>
      <DataTable<AccountCheckItem>
        query={list}
        pages={pages}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          { title: t('accountChecks.holder'), dataIndex: 'accountName', onCell: nowrap },
          {
            title: t('accountChecks.account'),
            onCell: nowrap,
            render: (_, row) => (
              <Space direction="vertical" size={0}>
                <span>
                  <Tag>{row.accountType === 'upi' ? 'UPI' : t('accountChecks.bank')}</Tag>
                  {row.accountNoShown}
                </span>
                {row.accountType === 'bank' && (
                  <Typography.Text type="secondary">
                    {row.ifsc} · {row.bankName ?? t('accountChecks.bankUnknown')}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('accountChecks.owner'),
            onCell: nowrap,
            render: (_, row) => (
              <Space direction="vertical" size={0}>
                {row.owners.map((o) => (
                  <span key={o.userId}>
                    {phoneNumber(o.username)} <Typography.Text type="secondary">#{o.userId}</Typography.Text>
                    <br />
                    <Typography.Text type="secondary">
                      {t('accountChecks.stake', { balance: rupees(o.balance), waiting: rupees(o.waiting) })}
                    </Typography.Text>
                  </span>
                ))}
              </Space>
            ),
          },
          {
            title: t('accountChecks.signals'),
            render: (_, row) =>
              row.signals.length === 0 ? (
                <Typography.Text type="secondary">{t('accountChecks.noSignals')}</Typography.Text>
              ) : (
                <Space size={[0, 4]} wrap>
                  {row.signals.map((key) => (
                    <Tag color="orange" key={key}>
                      {catalogue(key)}
                    </Tag>
                  ))}
                </Space>
              ),
          },
          {
            title: t('accountChecks.cause'),
            onCell: nowrap,
            render: (_, row) => (
              <span title={row.gatewayNote ?? undefined}>
                <Tag color={row.cause === 'overdue' ? 'red' : 'blue'}>{t(`accountChecks.causes.${row.cause}`)}</Tag>
                <br />
                <Typography.Text type="secondary">{dateTime(row.queuedAt)}</Typography.Text>
              </span>
            ),
          },
          {
            title: t('accountChecks.approvals'),
            onCell: nowrap,
            render: (_, row) =>
              row.approvalsRequired === 1
                ? t('accountChecks.oneApproval')
                : row.firstApproverId === null
                  ? t('accountChecks.twoApprovals')
                  : t('accountChecks.firstBy', { id: row.firstApproverId }),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              !can('adminAccountCheckDecide') ? null : (
                <Space>
                  <Button
                    type="primary"
                    size="small"
                    disabled={row.firstApproverId === me.id || row.owners.some((o) => o.userId === me.id)}
                    onClick={() => setDeciding({ item: row, action: 'approve' })}
                  >
                    {t('accountChecks.approve')}
                  </Button>
                  <Button
                    danger
                    size="small"
                    disabled={row.owners.some((o) => o.userId === me.id)}
                    onClick={() => setDeciding({ item: row, action: 'refuse' })}
                  >
                    {t('accountChecks.refuse')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {deciding && (
        <DecideDialog
          item={deciding.item}
          action={deciding.action}
          saving={decide.isPending}
          onClose={() => setDeciding(undefined)}
          onDecide={(values) =>
            void decide.mutateAsync({ id: deciding.item.id, action: deciding.action, ...values }).catch(() => undefined)
          }
        />
      )}
    </Card>
  );
}
