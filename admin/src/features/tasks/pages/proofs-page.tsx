import {
  type AdminTaskProofItem,
  TASK_PROOF_REJECT_PRESETS,
  TASK_PROOF_STATES,
  type TaskProofState,
} from '@kamai/contract';
import { Button, Card, Form, Popconfirm, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { EditDialog } from '../../../components/edit-dialog';
import { rejectReasonLabel } from '../../../components/reject-label';
import { RejectReasonFields, type RejectValues } from '../../../components/reject-reason';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { usePauseWhile } from '../../../lib/live';
import { useProofs, useReviewProof } from '../api/proofs';

const COLORS: Record<TaskProofState, string> = { pending: 'gold', approved: 'green', rejected: 'volcano' };

/** Approve, after a confirmation naming the reward and the user; the lists hold still while it is open. */
function ApproveProof({
  item,
  busy,
  onApprove,
}: {
  item: AdminTaskProofItem;
  busy: boolean;
  onApprove: () => unknown;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  usePauseWhile(open);
  return (
    <Popconfirm
      title={t('proofs.approveConfirm', { amount: rupees(item.reward), user: phoneNumber(item.username) })}
      okText={t('proofs.approve')}
      cancelText={t('actions.cancel')}
      onOpenChange={setOpen}
      onConfirm={onApprove}
    >
      <Button type="primary" size="small" loading={busy}>
        {t('proofs.approve')}
      </Button>
    </Popconfirm>
  );
}

/** Proofs users submitted for proof tasks: look at the screenshot or link, approve (pays) or reject with a reason. */
export default function ProofsPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<TaskProofState | undefined>('pending');
  const pages = useCursorPages(state ?? '');
  const list = useProofs(state, pages.cursor);
  const [rejecting, setRejecting] = useState<AdminTaskProofItem | null>(null);
  const [form] = Form.useForm<RejectValues>();
  usePauseWhile(rejecting !== null);
  const review = useReviewProof(() => setRejecting(null));
  return (
    <Card>
      <Space className="toolbar" wrap>
        <Select<TaskProofState | 'all'>
          value={state ?? 'all'}
          className="filter-select"
          aria-label={t('proofs.state')}
          onChange={(value) => setState(value === 'all' ? undefined : value)}
          options={[
            { value: 'all', label: t('proofs.all') },
            ...TASK_PROOF_STATES.map((s) => ({ value: s, label: t(`proofs.states.${s}`) })),
          ]}
        />
      </Space>
      <DataTable<AdminTaskProofItem>
        query={list}
        pages={pages}
        columns={[
          { title: t('proofs.submitted'), render: (_, row) => dateTime(row.createdAt) },
          { title: t('proofs.user'), render: (_, row) => `${phoneNumber(row.username)} (#${row.userId})` },
          { title: t('proofs.task'), render: (_, row) => `#${row.taskId} ${row.taskTitle}` },
          { title: t('proofs.reward'), render: (_, row) => rupees(row.reward) },
          {
            title: t('proofs.proof'),
            render: (_, row) => (
              <Space direction="vertical" size={4}>
                {row.imageUrl && (
                  <a href={row.imageUrl} target="_blank" rel="noreferrer">
                    <img
                      src={row.imageUrl}
                      alt={t('proofs.screenshot')}
                      width={64}
                      height={64}
                      className="proof-thumb"
                    />
                  </a>
                )}
                {row.link && (
                  <a className="untrusted-text" href={row.link} target="_blank" rel="noreferrer noopener">
                    {row.link}
                  </a>
                )}
              </Space>
            ),
          },
          {
            title: t('proofs.state'),
            render: (_, row) => (
              <Space direction="vertical" size={2}>
                <Tag color={COLORS[row.state]}>{t(`proofs.states.${row.state}`)}</Tag>
                {row.reason && <span>{rejectReasonLabel(row.reason)}</span>}
              </Space>
            ),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.state === 'pending' ? (
                <Space>
                  <ApproveProof
                    item={row}
                    busy={review.isPending}
                    onApprove={() =>
                      review.mutateAsync({ id: row.id, action: 'approve', reason: '' }).catch(() => undefined)
                    }
                  />
                  <Button danger size="small" onClick={() => setRejecting(row)}>
                    {t('proofs.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {rejecting && (
        <EditDialog<RejectValues>
          form={form}
          title={`${t('proofs.rejectTitle', { id: rejecting.id })} · ${rupees(rejecting.reward)}`}
          okText={t('proofs.reject')}
          danger
          saving={review.isPending}
          onSave={({ preset, reason }) =>
            review.mutate({ id: rejecting.id, action: 'reject', preset, reason: reason?.trim() ?? '' })
          }
          onClose={() => setRejecting(null)}
        >
          <RejectReasonFields presets={TASK_PROOF_REJECT_PRESETS} />
        </EditDialog>
      )}
    </Card>
  );
}
