import { type AdminTaskProofItem, TASK_PROOF_STATES, type TaskProofState } from '@kamai/contract';
import { Button, Card, Input, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime } from '../../../lib/format';
import { useProofs, useReviewProof } from '../api/proofs';

const COLORS: Record<TaskProofState, string> = { pending: 'gold', approved: 'green', rejected: 'volcano' };

/** Proofs users submitted for proof tasks: look at the screenshot or link, approve (pays) or reject with a reason. */
export default function ProofsPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<TaskProofState | undefined>('pending');
  const pages = useCursorPages(state ?? '');
  const list = useProofs(state, pages.cursor);
  const [rejecting, setRejecting] = useState<AdminTaskProofItem | null>(null);
  const [reason, setReason] = useState('');
  const review = useReviewProof(() => {
    setRejecting(null);
    setReason('');
  });
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
          { title: t('proofs.user'), render: (_, row) => `${row.username} (#${row.userId})` },
          { title: t('proofs.task'), render: (_, row) => `#${row.taskId} ${row.taskTitle}` },
          { title: t('proofs.reward'), render: (_, row) => `₹${row.reward}` },
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
                  <a href={row.link} target="_blank" rel="noreferrer noopener">
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
                {row.reason && <span>{row.reason}</span>}
              </Space>
            ),
          },
          {
            title: t('table.actions'),
            fixed: 'right',
            render: (_, row) =>
              row.state === 'pending' ? (
                <Space>
                  <Button
                    type="primary"
                    size="small"
                    loading={review.isPending}
                    onClick={() => review.mutate({ id: row.id, action: 'approve', reason: '' })}
                  >
                    {t('proofs.approve')}
                  </Button>
                  <Button danger size="small" onClick={() => setRejecting(row)}>
                    {t('proofs.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={rejecting !== null}
        title={t('proofs.rejectTitle', { id: rejecting?.id ?? '' })}
        okText={t('proofs.reject')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: review.isPending }}
        onOk={() => rejecting && review.mutate({ id: rejecting.id, action: 'reject', reason })}
        onCancel={() => setRejecting(null)}
      >
        <Input.TextArea
          aria-label={t('proofs.reason')}
          placeholder={t('proofs.reason')}
          maxLength={200}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Modal>
    </Card>
  );
}
