import {
  type AdminPageData,
  grievanceOfficerSet,
  LOCALE_NAMES,
  LOCALES,
  PAGE_BODY_MAX,
  PAGE_SLUGS,
  type PageSlug,
} from '@kamai/contract';
import { Alert, Button, Card, Form, Grid, Input, Skeleton, Space, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePage, useSavePage } from '../api/pages';

type Values = Pick<AdminPageData, 'texts'> & {
  contact?: AdminPageData['contact'];
  grievance?: AdminPageData['grievance'];
};

/** One page's texts per language (English required; an empty language shows English) and Help's contact. */
function PageEditor({ slug }: { slug: PageSlug }) {
  const { t } = useTranslation();
  const page = usePage(slug);
  const save = useSavePage();
  const [form] = Form.useForm<Values>();
  // Six language names overflow a phone's tab bar, and antd's overflow menu is a button inside the
  // tablist (not a tab: axe's aria-required-children): on a phone the languages stand in a column.
  const phone = !Grid.useBreakpoint().sm;
  if (page.isPending) return <Skeleton active />;
  if (page.isError) return <p>{t('request.failed')}</p>;
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{
        texts: page.data.texts,
        contact: page.data.contact ?? undefined,
        grievance: page.data.grievance ?? undefined,
      }}
      onFinish={(values) =>
        save.mutate({
          slug,
          texts: values.texts ?? {},
          ...(slug === 'help' && values.contact ? { contact: values.contact } : {}),
          ...(slug === 'privacy' && values.grievance ? { grievance: values.grievance } : {}),
        })
      }
    >
      {slug === 'help' && (
        <Space wrap className="toolbar">
          <Form.Item label={t('pages.email')} name={['contact', 'email']}>
            <Input className="field-l" type="email" />
          </Form.Item>
          <Form.Item label={t('pages.phone')} name={['contact', 'phone']}>
            <Input className="field-l" />
          </Form.Item>
          <Form.Item label={t('pages.hours')} name={['contact', 'hours']}>
            <Input className="field-l" />
          </Form.Item>
        </Space>
      )}
      {page.data.updatedAt === null && (
        <Alert type="info" showIcon className="form-note" message={t('pages.defaultText')} />
      )}
      {slug === 'privacy' && (
        <>
          {!grievanceOfficerSet(page.data.grievance) && (
            <Alert type="warning" showIcon className="form-note" message={t('pages.grievanceMissing')} />
          )}
          <Space wrap className="toolbar">
            <Form.Item label={t('pages.grievanceName')} name={['grievance', 'name']}>
              <Input className="field-l" maxLength={100} />
            </Form.Item>
            <Form.Item label={t('pages.grievanceEmail')} name={['grievance', 'email']}>
              <Input className="field-l" type="email" />
            </Form.Item>
            <Form.Item label={t('pages.grievancePhone')} name={['grievance', 'phone']}>
              <Input className="field-l" type="tel" maxLength={30} />
            </Form.Item>
          </Space>
          <Form.Item label={t('pages.grievanceAddress')} name={['grievance', 'address']}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </>
      )}
      <Tabs
        tabPlacement={phone ? 'start' : 'top'}
        items={LOCALES.map((locale) => ({
          key: locale,
          label: LOCALE_NAMES[locale],
          forceRender: true,
          children: (
            <>
              <Form.Item
                label={t('pages.title')}
                name={['texts', locale, 'title']}
                rules={
                  locale === 'en_US' ? [{ required: true, whitespace: true, message: t('tasks.englishRequired') }] : []
                }
              >
                <Input maxLength={120} />
              </Form.Item>
              <Form.Item label={t('pages.body')} name={['texts', locale, 'body']} extra={t('pages.bodyNote')}>
                <Input.TextArea rows={8} maxLength={PAGE_BODY_MAX} />
              </Form.Item>
              {slug === 'help' && (
                <Form.List name={['texts', locale, 'faq']}>
                  {(items, { add, remove }) => (
                    <>
                      {items.map((item) => (
                        <Space key={item.key} align="start" wrap>
                          <Form.Item
                            label={t('pages.question')}
                            name={[item.name, 'question']}
                            rules={[{ required: true }]}
                          >
                            <Input className="field-l" maxLength={300} />
                          </Form.Item>
                          <Form.Item
                            label={t('pages.answer')}
                            name={[item.name, 'answer']}
                            rules={[{ required: true }]}
                          >
                            <Input.TextArea className="field-l" rows={2} maxLength={2000} />
                          </Form.Item>
                          <Button onClick={() => remove(item.name)}>{t('pages.removeQuestion')}</Button>
                        </Space>
                      ))}
                      <Button onClick={() => add({ question: '', answer: '' })} className="toolbar">
                        {t('pages.addQuestion')}
                      </Button>
                    </>
                  )}
                </Form.List>
              )}
            </>
          ),
        }))}
      />
      <Button type="primary" htmlType="submit" loading={save.isPending} className="toolbar">
        {t('pages.save')}
      </Button>
    </Form>
  );
}

/** Help, Terms and Privacy, as users read them from My (docs/decisions/help-and-legal-pages.md). */
export default function PagesPage() {
  const { t } = useTranslation();
  const [slug, setSlug] = useState<PageSlug>('help');
  return (
    <Card>
      <Tabs
        activeKey={slug}
        onChange={(key) => setSlug(key as PageSlug)}
        items={PAGE_SLUGS.map((s) => ({ key: s, label: t(`pages.slugs.${s}`) }))}
      />
      <PageEditor key={slug} slug={slug} />
    </Card>
  );
}
