import { type AdminNotice, NOTICE_BODY_MAX, NOTICE_TITLE_MAX, type NoticeTexts, noticeAddBody } from '@kamai/contract';
import { Checkbox, Form, Image, Input, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { TranslationTabs } from '../../../components/translation-tabs';
import { UploadButton } from '../../../components/upload-button';
import { contractRule } from '../../../lib/rules';
import { useSaveNotice } from '../api/notices';

interface Values {
  title: string;
  body: string;
  titles?: NoticeTexts;
  bodies?: NoticeTexts;
  imageUrl?: string;
  pinned: boolean;
}

/** Only the translations the operator wrote (a blank one means "show English"). */
function written(texts: NoticeTexts | undefined): NoticeTexts {
  return Object.fromEntries(Object.entries(texts ?? {}).filter(([, text]) => text?.trim()));
}

/**
 * A new notice, or one to edit: title and text in English (what every reader without a translation
 * sees) and in each other language, each tab flagged while its translation is missing; an image (one uploaded here: the app shows no other site's), pinned. Saving
 * publishes it unless the operator ticks "Save as draft"; the OK button says which will happen.
 */
export function NoticeForm({ notice, onClose }: { notice: AdminNotice | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const existing = notice === 'new' ? undefined : notice;
  const imageUrl = Form.useWatch('imageUrl', form);
  // Unticked, saving publishes the notice: users see it at once.
  const [draft, setDraft] = useState(existing ? !existing.published : false);
  const save = useSaveNotice(existing?.id, onClose);
  return (
    <EditDialog<Values>
      form={form}
      width={640}
      title={existing ? t('notices.editTitle', { id: existing.id }) : t('notices.new')}
      saving={save.isPending}
      okText={draft ? t('notices.saveDraft') : t('notices.savePublish')}
      onSave={(values) =>
        save.mutate({
          ...values,
          titles: written(values.titles),
          bodies: written(values.bodies),
          published: !draft,
          imageUrl: values.imageUrl?.trim() ? values.imageUrl.trim() : null,
        })
      }
      onClose={onClose}
      initialValues={{
        title: existing?.title,
        body: existing?.body,
        titles: existing?.titles ?? {},
        bodies: existing?.bodies ?? {},
        imageUrl: existing?.imageUrl ?? undefined,
        pinned: existing?.pinned ?? false,
      }}
    >
      <Form.Item label={t('notices.title')} name="title" rules={[contractRule(noticeAddBody.shape.title)]}>
        <Input maxLength={NOTICE_TITLE_MAX} />
      </Form.Item>
      <Form.Item label={t('notices.body')} name="body" rules={[contractRule(noticeAddBody.shape.body)]}>
        <Input.TextArea rows={6} maxLength={NOTICE_BODY_MAX} />
      </Form.Item>
      <Form.Item label={t('notices.translations')} extra={t('notices.translationsHint')}>
        <TranslationTabs
          testIdPrefix="notice"
          fields={[
            {
              name: 'titles',
              label: (language) => t('notices.titleIn', { language }),
              maxLength: NOTICE_TITLE_MAX,
            },
            {
              name: 'bodies',
              label: (language) => t('notices.bodyIn', { language }),
              maxLength: NOTICE_BODY_MAX,
              rows: 4,
            },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('notices.image')} extra={t('notices.imageHint')}>
        <Space align="start">
          <Form.Item name="imageUrl" noStyle rules={[contractRule(noticeAddBody.shape.imageUrl)]}>
            <Input className="field-l" placeholder="/uploads/…" />
          </Form.Item>
          <UploadButton
            accept="image/png,image/jpeg,image/webp"
            onUploaded={(url) => form.setFieldValue('imageUrl', url)}
          />
        </Space>
        {imageUrl && <Image src={imageUrl} height={80} className="space-top" />}
      </Form.Item>
      <Space size="large">
        <Form.Item label={t('notices.pinned')} name="pinned" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item extra={t('notices.draftHint')}>
          <Checkbox checked={draft} onChange={(event) => setDraft(event.target.checked)}>
            {t('notices.draft')}
          </Checkbox>
        </Form.Item>
      </Space>
    </EditDialog>
  );
}
