import {
  ADMIN_COMPLAINT_FILTERS,
  type AdminComplaintFilter,
  type AdminComplaintItem,
  COMPLAINT_CATEGORY_KEYS,
  COMPLAINT_OUTCOME_KEYS,
  COMPLAINT_OUTCOMES,
  COMPLAINT_REPLY_MAX,
  COMPLAINT_STATE_KEYS,
  type ComplaintOutcome,
  type ComplaintSubjectView,
  LOCALE_NAMES,
  type MessageKey,
  WITHDRAWAL_STATE_LABELS,
  type WithdrawalState,
} from '@kamai/contract';
import {
  Alert,
  Button,
  Card,
  Form,
  Grid,
  Input,
  Modal,
  Segmented,
  Select,
  Space,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { catalogueText } from '../../../i18n';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useAnswerComplaint, useComplaints } from '../api/complaints';

type Writing = { item: AdminComplaintItem; action: 'reply' | 'close' };
const catalogue = (key: MessageKey) => catalogueText(key);
const STATE_COLORS = { open: 'gold', acknowledged: 'blue', closed: 'default' } as const;

/** The linked withdrawal, wallet entry or payout account, as the operator checks it against the complaint. */
function Subject({ view }: { view: ComplaintSubjectView }) {
  const { t } = useTranslation();
  const title = t(`complaints.subjects.${view.kind}`, { id: view.id });
  if (!view.found) return <Typography.Text type="secondary">{t('complaints.subjectGone', { title })}</Typography.Text>;
  const state =
    view.kind === 'withdrawal' && view.state
      ? catalogue(WITHDRAWAL_STATE_LABELS[view.state as WithdrawalState])
      : view.kind === 'entry' && view.state
        ? t(`postingTypes.${view.state}`, { defaultValue: view.state })
        : null;
  return (
    <Space direction="vertical" size={0} className="complaint-subject">
      <Typography.Text strong>{title}</Typography.Text>
      {view.amount && <span>{rupees(view.amount)}</span>}
      {state && <Tag>{state}</Tag>}
      {view.account && <Typography.Text type="secondary">{view.account}</Typography.Text>}
      {view.createdAt && <Typography.Text type="secondary">{dateTime(view.createdAt)}</Typography.Text>}
    </Space>
  );
}

/** The history, oldest first, with each text as the user or the operator wrote it. */
function History({ item }: { item: AdminComplaintItem }) {
  const { t } = useTranslation();
  return (
    <Timeline
      className="complaint-history"
      items={item.events.map((event) => ({
        key: `${event.kind}:${event.at}`,
        color: event.kind === 'closed' ? 'gray' : event.kind === 'raised' ? 'blue' : 'green',
        children: (
          <Space direction="vertical" size={0}>
            <Typography.Text strong>
              {t(`complaints.events.${event.kind}`)}
              {event.outcome ? ` · ${catalogue(COMPLAINT_OUTCOME_KEYS[event.outcome])}` : ''}
            </Typography.Text>
            <Typography.Text type="secondary">{dateTime(event.at)}</Typography.Text>
            {event.text && <Typography.Paragraph className="complaint-text">{event.text}</Typography.Paragraph>}
          </Space>
        ),
      }))}
    />
  );
}

/** A reply or the closing text, written in the user's language (the dialog names it); closing adds the outcome. */
function WriteDialog({
  writing,
  saving,
  onClose,
  onSend,
}: {
  writing: Writing;
  saving: boolean;
  onClose: () => void;
  onSend: (values: { text: string; outcome?: ComplaintOutcome }) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ text: string; outcome?: ComplaintOutcome }>();
  const { item, action } = writing;
  const language = LOCALE_NAMES[item.locale];
  return (
    <Modal
      open
      title={t(action === 'reply' ? 'complaints.replyTitle' : 'complaints.closeTitle', { number: item.number })}
      okText={t(action === 'reply' ? 'complaints.send' : 'complaints.close')}
      okButtonProps={{ loading: saving }}
      cancelText={t('actions.cancel')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then(onSend)}
    >
      <Alert type="info" showIcon className="form-note" message={t('complaints.replyIn', { language })} />
      <Form form={form} layout="vertical">
        {action === 'close' && (
          <Form.Item
            label={t('complaints.outcome')}
            name="outcome"
            rules={[{ required: true, message: catalogue('complaint_outcome_required') }]}
          >
            <Select
              aria-label={t('complaints.outcome')}
              options={COMPLAINT_OUTCOMES.map((value) => ({ value, label: catalogue(COMPLAINT_OUTCOME_KEYS[value]) }))}
            />
          </Form.Item>
        )}
        <Form.Item
          label={t('complaints.text', { language })}
          name="text"
          rules={[{ required: true, whitespace: true, message: catalogue('enter_complaint_reply') }]}
        >
          <Input.TextArea
            rows={5}
            maxLength={COMPLAINT_REPLY_MAX}
            showCount
            lang={item.locale.replace('_', '-')}
            aria-label={t('complaints.text', { language })}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Complaints (docs/decisions/grievances.md): each with the user's language, the linked withdrawal,
 * entry or account beside it, the deadlines (acknowledge within 24 hours, resolve within 15 days) and
 * their overdue flags. Acknowledge, reply in the user's language, close with an outcome; the user is
 * notified of each.
 */
export default function ComplaintsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [filter, setFilter] = useState<AdminComplaintFilter>('open');
  const pages = useCursorPages(filter);
  const [writing, setWriting] = useState<Writing>();
  const list = useComplaints(filter, pages.cursor, writing !== undefined);
  const answer = useAnswerComplaint(() => setWriting(undefined));
  // A phone shows rows as cards, which cannot expand: the history is a field of the card there.
  const phone = Grid.useBreakpoint().md === false;
  const history = phone
    ? [{ title: t('complaints.history'), render: (_: unknown, row: AdminComplaintItem) => <History item={row} /> }]
    : [];

  return (
    <Card>
      <Typography.Paragraph type="secondary">{t('complaints.intro')}</Typography.Paragraph>
      <Space wrap className="toolbar">
        <Segmented<AdminComplaintFilter>
          value={filter}
          onChange={setFilter}
          options={ADMIN_COMPLAINT_FILTERS.map((value) => ({ value, label: t(`complaints.filters.${value}`) }))}
        />
      </Space>
      <DataTable<AdminComplaintItem>
        query={list}
        pages={pages}
        scroll={{ x: 'max-content' }}
        expandable={phone ? undefined : { expandedRowRender: (row) => <History item={row} /> }}
        columns={[
          {
            title: t('complaints.complaint'),
            onCell: () => ({ className: 'nowrap' }),
            render: (_, row) => (
              <Space direction="vertical" size={2}>
                <Typography.Text strong>{row.number}</Typography.Text>
                <Space size={[4, 4]} wrap>
                  <Tag color={STATE_COLORS[row.state]}>{catalogue(COMPLAINT_STATE_KEYS[row.state])}</Tag>
                  {row.ackOverdue && <Tag color="red">{t('complaints.ackOverdue')}</Tag>}
                  {row.resolutionOverdue && <Tag color="red">{t('complaints.resolutionOverdue')}</Tag>}
                </Space>
                <span>
                  {phoneNumber(row.username)} <Typography.Text type="secondary">#{row.userId}</Typography.Text>
                </span>
                <Tag color="purple">{t('complaints.language', { language: LOCALE_NAMES[row.locale] })}</Tag>
              </Space>
            ),
          },
          {
            title: t('complaints.about'),
            render: (_, row) => (
              <Space direction="vertical" size={4}>
                <Typography.Text>{catalogue(COMPLAINT_CATEGORY_KEYS[row.category])}</Typography.Text>
                {row.subjectView && <Subject view={row.subjectView} />}
              </Space>
            ),
          },
          {
            title: t('complaints.userText'),
            render: (_, row) => (
              <Typography.Paragraph className="complaint-text" ellipsis={{ rows: 4, expandable: true }}>
                {row.text}
              </Typography.Paragraph>
            ),
          },
          {
            title: t('complaints.deadlines'),
            onCell: () => ({ className: 'nowrap' }),
            render: (_, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text type="secondary">
                  {t('complaints.raised', { at: dateTime(row.createdAt) })}
                </Typography.Text>
                {row.state === 'open' && (
                  <Typography.Text type={row.ackOverdue ? 'danger' : undefined}>
                    {t('complaints.ackDue', { at: dateTime(row.ackDueAt) })}
                  </Typography.Text>
                )}
                {row.state !== 'closed' ? (
                  <Typography.Text type={row.resolutionOverdue ? 'danger' : undefined}>
                    {t('complaints.resolveDue', { at: dateTime(row.resolveDueAt) })}
                  </Typography.Text>
                ) : (
                  <Typography.Text>{t('complaints.closedAt', { at: dateTime(row.closedAt) })}</Typography.Text>
                )}
              </Space>
            ),
          },
          ...history,
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.state === 'closed' || !can('adminComplaintReply') ? null : (
                <Space direction={phone ? 'horizontal' : 'vertical'} wrap>
                  {row.state === 'open' && (
                    <Button
                      size="small"
                      loading={answer.isPending && answer.variables?.id === row.id}
                      onClick={() => answer.mutate({ action: 'acknowledge', id: row.id })}
                    >
                      {t('complaints.acknowledge')}
                    </Button>
                  )}
                  <Button type="primary" size="small" onClick={() => setWriting({ item: row, action: 'reply' })}>
                    {t('complaints.reply')}
                  </Button>
                  <Button size="small" onClick={() => setWriting({ item: row, action: 'close' })}>
                    {t('complaints.close')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {writing && (
        <WriteDialog
          writing={writing}
          saving={answer.isPending}
          onClose={() => setWriting(undefined)}
          onSend={(values) =>
            answer.mutate(
              writing.action === 'reply'
                ? { action: 'reply', id: writing.item.id, text: values.text }
                : { action: 'close', id: writing.item.id, text: values.text, outcome: values.outcome ?? 'other' },
            )
          }
        />
      )}
    </Card>
  );
}
