import {
  adminSettingsSetBody,
  BPS_MAX,
  DAILY_COUNT_MAX,
  introSetBody,
  linkedRateBody,
  type RouteName,
  rebateSettings,
} from '@kamai/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Skeleton, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadButton } from '../components/upload-button';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { useCan } from '../lib/roles';
import { contractRule } from '../lib/rules';

const limits = adminSettingsSetBody.shape.withdrawal.unwrap().shape;

/** A settings card: loads its values, saves them, disabled for a role that may not change them. */
function SettingsCard<V extends object>({
  title,
  load,
  save,
  setRoute,
  children,
}: {
  title: string;
  load: { key: string; fn: () => Promise<V> };
  save: (values: V) => Promise<{ message: string }>;
  setRoute: RouteName;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const [form] = Form.useForm<V>();
  const query = useQuery({ queryKey: ['settings', load.key], queryFn: load.fn });
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (result) => {
      void message.success(result.message);
      void client.invalidateQueries({ queryKey: ['settings', load.key] });
    },
    onError: (error) => void message.error(messageOf(error)),
  });
  const editable = can(setRoute);
  return (
    <Card title={title} style={{ height: '100%' }}>
      {query.isError ? (
        messageOf(query.error)
      ) : !query.data ? (
        <Skeleton active />
      ) : (
        <Form<V>
          form={form}
          layout="vertical"
          initialValues={query.data}
          disabled={!editable}
          onFinish={(values) => mutation.mutate(values)}
          key={JSON.stringify(query.data)}
        >
          {children}
          {editable && (
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              {t('actions.save')}
            </Button>
          )}
        </Form>
      )}
    </Card>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      <Col span={12}>
        <SettingsCard
          title={t('settings.withdrawal')}
          setRoute="adminSettingsSet"
          load={{ key: 'withdrawal', fn: async () => (await apiCall('adminSettingsGet')).withdrawal }}
          save={(withdrawal) => apiRequest('adminSettingsSet', { body: { withdrawal } })}
        >
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item label={t('settings.min')} name="min" rules={[contractRule(limits.min)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t('settings.max')} name="max" rules={[contractRule(limits.max)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t('settings.dailyCount')} name="dailyCount" rules={[contractRule(limits.dailyCount)]}>
                <InputNumber min={1} max={DAILY_COUNT_MAX} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t('settings.dailyTotal')} name="dailyTotal" rules={[contractRule(limits.dailyTotal)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
          </Row>
        </SettingsCard>
      </Col>
      <Col span={12}>
        <SettingsCard
          title={t('settings.rebate')}
          setRoute="adminRebateSet"
          load={{ key: 'rebate', fn: () => apiCall('adminRebateGet') }}
          save={(body) => apiRequest('adminRebateSet', { body })}
        >
          <Form.Item
            label={t('settings.level1')}
            name="level1Bps"
            extra={t('settings.bpsNote')}
            rules={[contractRule(rebateSettings.shape.level1Bps)]}
          >
            <InputNumber min={0} max={BPS_MAX} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            label={t('settings.level2')}
            name="level2Bps"
            rules={[contractRule(rebateSettings.shape.level2Bps)]}
          >
            <InputNumber min={0} max={BPS_MAX} style={{ width: '100%' }} />
          </Form.Item>
        </SettingsCard>
      </Col>
      <Col span={12}>
        <SettingsCard
          title={t('settings.linkedRate')}
          setRoute="adminWsRateSet"
          load={{ key: 'rate', fn: () => apiCall('adminWsRateGet') }}
          save={(body) => apiRequest('adminWsRateSet', { body })}
        >
          <Form.Item
            label={t('settings.hourlyRate')}
            name="hourlyRate"
            extra={t('settings.hourlyNote')}
            rules={[contractRule(linkedRateBody.shape.hourlyRate)]}
          >
            <Input inputMode="decimal" prefix="₹" />
          </Form.Item>
        </SettingsCard>
      </Col>
      <Col span={12}>
        <IntroCard />
      </Col>
    </Row>
  );
}

function IntroCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard
      title={t('settings.intro')}
      setRoute="adminIntroSet"
      load={{ key: 'intro', fn: () => apiCall('adminIntroGet') }}
      save={(body) => apiRequest('adminIntroSet', { body })}
    >
      <IntroFields />
    </SettingsCard>
  );
}

function IntroFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
      <Form.Item label={t('settings.video')}>
        <Space>
          <Form.Item name="videoUrl" noStyle rules={[contractRule(introSetBody.shape.videoUrl)]}>
            <Input style={{ width: 300 }} placeholder="/uploads/…mp4" />
          </Form.Item>
          <UploadButton accept="video/mp4" onUploaded={(url) => form.setFieldValue('videoUrl', url)} />
        </Space>
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label={t('settings.userCount')}
            name="userCount"
            rules={[contractRule(introSetBody.shape.userCount)]}
          >
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label={t('settings.countryCount')}
            name="countryCount"
            rules={[contractRule(introSetBody.shape.countryCount)]}
          >
            <InputNumber min={0} max={300} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('settings.countries')} name="countries" extra={t('settings.countriesNote')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} />
      </Form.Item>
    </>
  );
}
