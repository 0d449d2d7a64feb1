import {
  type AdminTask,
  LOCALE_NAMES,
  LOCALES,
  type Locale,
  TASK_SECTIONS,
  type TaskSection,
  taskAddBody,
} from '@kamai/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { dateTime, rupees } from '../lib/format';
import { useCan } from '../lib/roles';
import { contractRule } from '../lib/rules';

interface Values {
  titles: Partial<Record<Locale, string>>;
  section: TaskSection;
  reward: string;
  targetCount?: number;
  window?: [Dayjs | null, Dayjs | null] | null;
  sort?: number;
  active: boolean;
}

const fields = taskAddBody.shape;

function TaskForm({ task, onClose }: { task: AdminTask | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const existing = task === 'new' ? undefined : task;
  const save = useMutation({
    mutationFn: async (values: Values) => {
      const body = {
        titles: Object.fromEntries(Object.entries(values.titles).filter(([, v]) => v && v.trim() !== '')),
        section: values.section,
        reward: values.reward,
        targetCount: values.targetCount ?? 1,
        startsAt: values.window?.[0]?.toISOString() ?? null,
        endsAt: values.window?.[1]?.toISOString() ?? null,
        sort: values.sort ?? 0,
        active: values.active,
      };
      return existing
        ? apiRequest('adminTaskEdit', { body: { id: existing.id, ...body } })
        : apiRequest('adminTaskAdd', { body });
    },
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['tasks'] });
      onClose();
    },
    onError: (error) => void message.error(messageOf(error)),
  });
  return (
    <Modal
      open
      width={640}
      title={existing ? t('tasks.editTitle', { id: existing.id }) : t('tasks.new')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ loading: save.isPending }}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      onCancel={onClose}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          titles: existing?.titles ?? {},
          section: existing?.section ?? 'hot',
          reward: existing?.reward,
          targetCount: existing?.targetCount ?? 1,
          window: existing
            ? [existing.startsAt ? dayjs(existing.startsAt) : null, existing.endsAt ? dayjs(existing.endsAt) : null]
            : undefined,
          sort: existing?.sort ?? 0,
          active: existing?.active ?? true,
        }}
      >
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          {LOCALES.map((locale) => (
            <Form.Item
              key={locale}
              label={t('tasks.titleIn', { language: LOCALE_NAMES[locale] })}
              name={['titles', locale]}
              rules={
                locale === 'en_US' ? [{ required: true, whitespace: true, message: t('tasks.englishRequired') }] : []
              }
            >
              <Input maxLength={120} />
            </Form.Item>
          ))}
          <Form.Item label={t('tasks.section')} name="section">
            <Select options={TASK_SECTIONS.map((s) => ({ value: s, label: t(`sections.${s}`) }))} />
          </Form.Item>
          <Form.Item label={t('tasks.reward')} name="reward" rules={[contractRule(fields.reward)]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item label={t('tasks.target')} name="targetCount">
            <InputNumber min={1} max={1000} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label={t('tasks.sort')} name="sort">
            <InputNumber min={-10000} max={10000} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label={t('tasks.window')} name="window">
            <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label={t('tasks.active')} name="active" valuePropName="checked">
            <Switch />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}

export function TasksPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [editing, setEditing] = useState<AdminTask | 'new'>();
  const list = useQuery({ queryKey: ['tasks'], queryFn: () => apiCall('adminTaskList') });
  const remove = useMutation({
    mutationFn: (id: number) => apiRequest('adminTaskDelete', { body: { id } }),
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['tasks'] });
    },
    onError: (error) => void message.error(messageOf(error)),
  });
  const locale = i18n.language as Locale;
  return (
    <Card>
      {can('adminTaskAdd') && (
        <Space style={{ marginBottom: 16 }}>
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('tasks.new')}
          </Button>
        </Space>
      )}
      <Table<AdminTask>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
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
