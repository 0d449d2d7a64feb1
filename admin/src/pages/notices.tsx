import { type AdminNotice, NOTICE_BODY_MAX, NOTICE_STATES, NOTICE_TITLE_MAX, noticeAddBody } from '@kamai/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Image,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../components/pager';
import { UploadButton } from '../components/upload-button';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime } from '../lib/format';
import { useCan } from '../lib/roles';
import { contractRule } from '../lib/rules';

type NoticeState = (typeof NOTICE_STATES)[number];
interface Values {
  title: string;
  body: string;
  imageUrl?: string;
  pinned: boolean;
  published: boolean;
}
const STATE_COLORS: Record<NoticeState, string> = { draft: 'default', scheduled: 'blue', published: 'green' };

function NoticeForm({ notice, onClose }: { notice: AdminNotice | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const existing = notice === 'new' ? undefined : notice;
  const imageUrl = Form.useWatch('imageUrl', form);
  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = { ...values, imageUrl: values.imageUrl?.trim() ? values.imageUrl.trim() : null };
      return existing
        ? apiRequest('adminNoticeEdit', { body: { id: existing.id, ...body } })
        : apiRequest('adminNoticeAdd', { body });
    },
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['notices'] });
      onClose();
    },
    onError: (error) => void message.error(messageOf(error)),
  });
  return (
    <Modal
      open
      width={640}
      title={existing ? t('notices.editTitle', { id: existing.id }) : t('notices.new')}
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
          title: existing?.title,
          body: existing?.body,
          imageUrl: existing?.imageUrl ?? undefined,
          pinned: existing?.pinned ?? false,
          published: existing?.published ?? false,
        }}
      >
        <Form.Item label={t('notices.title')} name="title" rules={[contractRule(noticeAddBody.shape.title)]}>
          <Input maxLength={NOTICE_TITLE_MAX} />
        </Form.Item>
        <Form.Item label={t('notices.body')} name="body" rules={[contractRule(noticeAddBody.shape.body)]}>
          <Input.TextArea rows={6} maxLength={NOTICE_BODY_MAX} />
        </Form.Item>
        <Form.Item label={t('notices.image')}>
          <Space align="start">
            <Form.Item name="imageUrl" noStyle rules={[contractRule(noticeAddBody.shape.imageUrl)]}>
              <Input style={{ width: 360 }} placeholder="/uploads/…" />
            </Form.Item>
            <UploadButton
              accept="image/png,image/jpeg,image/webp"
              onUploaded={(url) => form.setFieldValue('imageUrl', url)}
            />
          </Space>
          {imageUrl && <Image src={imageUrl} height={80} style={{ marginTop: 8 }} />}
        </Form.Item>
        <Space size="large">
          <Form.Item label={t('notices.pinned')} name="pinned" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label={t('notices.published')} name="published" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

export function NoticesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [state, setState] = useState<NoticeState>();
  const [editing, setEditing] = useState<AdminNotice | 'new'>();
  const pages = useCursorPages(state ?? '');
  const list = useQuery({
    queryKey: ['notices', state, pages.cursor],
    queryFn: () => apiCall('adminNoticeList', { query: { state, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
  const onDone = {
    onSuccess: (result: { message: string }) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['notices'] });
    },
    onError: (error: unknown) => void message.error(messageOf(error)),
  };
  const edit = useMutation({
    mutationFn: (body: { id: number; pinned?: boolean; published?: boolean }) =>
      apiRequest('adminNoticeEdit', { body }),
    ...onDone,
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiRequest('adminNoticeDelete', { body: { id } }),
    ...onDone,
  });
  return (
    <Card>
      <Space style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label={t('withdrawals.state')}
          placeholder={t('withdrawals.allStates')}
          style={{ width: 180 }}
          onChange={(value?: NoticeState) => setState(value)}
          options={NOTICE_STATES.map((s) => ({ value: s, label: t(`notices.states.${s}`) }))}
        />
        {can('adminNoticeAdd') && (
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('notices.new')}
          </Button>
        )}
      </Space>
      <Table<AdminNotice>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          {
            title: t('notices.title'),
            render: (_, row) => (
              <Space>
                {row.pinned && <Tag color="purple">{t('notices.pinned')}</Tag>}
                {row.title}
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
                  <Button size="small" onClick={() => edit.mutate({ id: row.id, published: !row.published })}>
                    {row.published ? t('notices.unpublish') : t('notices.publish')}
                  </Button>
                  <Button size="small" onClick={() => edit.mutate({ id: row.id, pinned: !row.pinned })}>
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
      <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
      {editing && <NoticeForm notice={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
