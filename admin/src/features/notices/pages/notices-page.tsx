import { type AdminNotice, LOCALE_NAMES, NOTICE_STATES, NOTICE_TRANSLATION_LOCALES } from '@kamai/contract';
import { Button, Card, Popconfirm, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useUrlFilters } from '../../../lib/url-filters';
import { type NoticeState, useDeleteNotice, useNotices, useToggleNotice } from '../api/notices';
import { NoticeForm } from '../components/notice-form';

const STATE_COLORS: Record<NoticeState, string> = { draft: 'default', scheduled: 'blue', published: 'green' };
const FILTERS = { state: NOTICE_STATES } as const;

/** Languages a notice has no full translation in (their readers see English). */
function untranslated(notice: AdminNotice) {
  return NOTICE_TRANSLATION_LOCALES.filter((l) => !notice.titles[l] || !notice.bodies[l]);
}

export default function NoticesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [{ state }, setFilters] = useUrlFilters(FILTERS);
  const [editing, setEditing] = useState<AdminNotice | 'new'>();
  const pages = useCursorPages(state ?? '');
  const list = useNotices(state, pages.cursor);
  const toggle = useToggleNotice();
  const remove = useDeleteNotice();
  return (
    <Card>
      <Space className="toolbar">
        <Select
          allowClear
          aria-label={t('withdrawals.state')}
          placeholder={t('withdrawals.allStates')}
          className="field-m"
          value={state}
          onChange={(value?: NoticeState) => setFilters({ state: value })}
          options={NOTICE_STATES.map((s) => ({ value: s, label: t(`notices.states.${s}`) }))}
        />
        {can('adminNoticeAdd') && (
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('notices.new')}
          </Button>
        )}
      </Space>
      <DataTable<AdminNotice>
        query={list}
        pages={pages}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          {
            title: t('notices.title'),
            render: (_, row) => (
              <Space wrap>
                {row.pinned && <Tag color="purple">{t('notices.pinned')}</Tag>}
                {row.title}
                {untranslated(row).length > 0 && (
                  <Tag
                    color="orange"
                    title={untranslated(row)
                      .map((l) => LOCALE_NAMES[l])
                      .join(', ')}
                  >
                    {t('notices.missingCount', { count: untranslated(row).length })}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('withdrawals.state'),
            render: (_, row) => <Tag color={STATE_COLORS[row.state]}>{t(`notices.states.${row.state}`)}</Tag>,
          },
          { title: t('notices.publishedAt'), render: (_, row) => dateTime(row.publishedAt) },
          { title: t('notices.reads'), dataIndex: 'readCount' },
          {
            title: t('table.actions'),
            render: (_, row) =>
              can('adminNoticeEdit') && (
                <Space wrap>
                  <Button size="small" onClick={() => setEditing(row)}>
                    {t('actions.edit')}
                  </Button>
                  <Button size="small" onClick={() => toggle.mutate({ id: row.id, published: !row.published })}>
                    {row.published ? t('notices.unpublish') : t('notices.publish')}
                  </Button>
                  <Button size="small" onClick={() => toggle.mutate({ id: row.id, pinned: !row.pinned })}>
                    {row.pinned ? t('notices.unpin') : t('notices.pin')}
                  </Button>
                  <Popconfirm
                    title={t('actions.deleteConfirm')}
                    okText={t('actions.delete')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('actions.cancel')}
                    onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
                  >
                    <Button size="small" danger>
                      {t('actions.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      {editing && <NoticeForm notice={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
