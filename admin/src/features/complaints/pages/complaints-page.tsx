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
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { catalogueText } from '../../../i18n';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { usePauseWhile } from '../../../lib/live';
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

/** The row's actions: acknowledge (an open one), reply, close; thumb-sized on a phone card. */
function Actions({
  row,
  phone,
  acknowledging,
  onAcknowledge,
  onWrite,
}: {
  row: AdminComplaintItem;
  phone: boolean;
  acknowledging: boolean;
  onAcknowledge: () => void;
  onWrite: (action: 'reply' | 'close') => void;
}) {
  const { t } = useTranslation();
  const size = phone ? 'large' : 'small';
  const buttons = (
    <>
      {row.state === 'open' && (
        <Button size={size} loading={acknowledging} onClick={onAcknowledge}>
          {t('complaints.acknowledge')}
        </Button>
      )}
      <Button type="primary" size={size} onClick={() => onWrite('reply')}>
        {t('complaints.reply')}
      </Button>
      <Button size={size} onClick={() => onWrite('close')}>
        {t('complaints.close')}
      </Button>
    </>
  );
  return phone ? (
    <div className="queue-card-actions queue-card-actions-3">{buttons}</div>
  ) : (
    <Space direction="vertical">{buttons}</Space>
  );
}

/**
 * A complaint on a phone: its number, state and overdue flags, the user and their language, what it is
 * about, the text (three lines, more on a tap), the deadline that applies, the history folded, and the
 * actions at the foot.
 */
function ComplaintCard({ row, actions }: { row: AdminComplaintItem; actions: ReactNode }) {
  const { t } = useTranslation();
  const view = row.subjectView;
  return (
    <div className="queue-card" data-testid="complaint-card">
      <div className="queue-card-head">
        <Typography.Text strong>{row.number}</Typography.Text>
        <Space size={4} wrap className="queue-card-tags">
          <Tag color={STATE_COLORS[row.state]}>{catalogue(COMPLAINT_STATE_KEYS[row.state])}</Tag>
          {row.ackOverdue && <Tag color="red">{t('complaints.ackOverdue')}</Tag>}
          {row.resolutionOverdue && <Tag color="red">{t('complaints.resolutionOverdue')}</Tag>}
        </Space>
      </div>
      <span className="queue-card-line">
        {phoneNumber(row.username)}{' '}
        <Typography.Text type="secondary">
          #{row.userId} · {t('complaints.language', { language: LOCALE_NAMES[row.locale] })}
        </Typography.Text>
      </span>
      <span className="queue-card-line">
        {catalogue(COMPLAINT_CATEGORY_KEYS[row.category])}
        {view && ` · ${t(`complaints.subjects.${view.kind}`, { id: view.id })}`}
        {view?.amount && ` · ${rupees(view.amount)}`}
        {view?.kind === 'withdrawal' &&
          view.state &&
          ` · ${catalogue(WITHDRAWAL_STATE_LABELS[view.state as WithdrawalState])}`}
      </span>
      <Typography.Paragraph className="queue-card-text" ellipsis={{ rows: 3, expandable: true }}>
        {row.text}
      </Typography.Paragraph>
      <Typography.Text
        type={row.ackOverdue || row.resolutionOverdue ? 'danger' : 'secondary'}
        className="queue-card-line"
      >
        {row.state === 'open'
          ? t('complaints.ackDue', { at: dateTime(row.ackDueAt) })
          : row.state === 'closed'
            ? t('complaints.closedAt', { at: dateTime(row.closedAt) })
            : t('complaints.resolveDue', { at: dateTime(row.resolveDueAt) })}
      </Typography.Text>
      {row.events.length > 1 && (
        <details className="queue-card-history">
          <summary>
            {t('complaints.history')} ({row.events.length})
          </summary>
          <History item={row} />
        </details>
      )}
      {actions}
    </div>
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
  usePauseWhile(writing !== undefined);
  const list = useComplaints(filter, pages.cursor);
  const answer = useAnswerComplaint(() => setWriting(undefined));
  // A phone shows rows as cards, which cannot expand: the history is a field of the card there.
  const phone = Grid.useBreakpoint().md === false;
  const actions = (row: AdminComplaintItem) =>
    row.state === 'closed' || !can('adminComplaintReply') ? null : (
      <Actions
        row={row}
        phone={phone}
        acknowledging={answer.isPending && answer.variables?.id === row.id}
        onAcknowledge={() => answer.mutate({ action: 'acknowledge', id: row.id })}
        onWrite={(action) => setWriting({ item: row, action })}
      />
    );

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
        card={(row) => <ComplaintCard row={row} actions={actions(row)} />}
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
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) => actions(row),
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
