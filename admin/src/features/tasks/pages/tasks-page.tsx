import type { AdminTask, Locale } from '@kamai/contract';
import { Button, Card, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { dateTime, rupees } from '../../../lib/format';
import { useCan } from '../../../lib/roles';
import { useDeleteTask, useTasks } from '../api/tasks';
import { TaskForm } from '../components/task-form';

export default function TasksPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const [editing, setEditing] = useState<AdminTask | 'new'>();
  const list = useTasks();
  const remove = useDeleteTask();
  const locale = i18n.language as Locale;
  return (
    <Card>
      {can('adminTaskAdd') && (
        <Space className="toolbar">
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('tasks.new')}
          </Button>
        </Space>
      )}
      <DataTable<AdminTask>
        query={list}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          { title: t('tasks.title'), render: (_, row) => row.titles[locale] || row.titles.en_US },
          { title: t('tasks.section'), render: (_, row) => t(`sections.${row.section}`) },
          { title: t('tasks.reward'), align: 'right', render: (_, row) => rupees(row.reward) },
          { title: t('tasks.target'), dataIndex: 'targetCount' },
          {
            title: t('tasks.window'),
            render: (_, row) =>
              row.startsAt || row.endsAt ? `${dateTime(row.startsAt)} – ${dateTime(row.endsAt)}` : '',
          },
          { title: t('tasks.sort'), dataIndex: 'sort' },
          {
            title: t('tasks.active'),
            render: (_, row) => (
              <Space size={4}>
                <Tag color={row.active ? 'green' : 'default'}>{row.active ? t('actions.yes') : t('actions.no')}</Tag>
                {row.system && <Tag>{t('tasks.system')}</Tag>}
              </Space>
            ),
          },
          { title: t('tasks.completions'), dataIndex: 'completions' },
          {
            title: t('table.actions'),
            render: (_, row) =>
              can('adminTaskEdit') && (
                <Space>
                  <Button size="small" onClick={() => setEditing(row)}>
                    {t('actions.edit')}
                  </Button>
                  {!row.system && (
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
                  )}
                </Space>
              ),
          },
        ]}
      />
      {editing && <TaskForm task={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
