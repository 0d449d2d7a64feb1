import { INTRO_VIDEO_SECONDS_MAX, introSetBody } from '@kamai/contract';
import { Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { UploadButton } from '../../../components/upload-button';
import { contractRule } from '../../../lib/rules';

/** The intro page's video (uploaded or by URL) and its headline figures. */
export function IntroFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
      <Form.Item label={t('settings.video')}>
        <Space>
          <Form.Item name="videoUrl" noStyle rules={[contractRule(introSetBody.shape.videoUrl)]}>
            <Input className="field-l" placeholder="/uploads/…mp4" />
          </Form.Item>
          <UploadButton accept="video/mp4" onUploaded={(url) => form.setFieldValue('videoUrl', url)} />
        </Space>
      </Form.Item>
      <Form.Item
        label={t('settings.videoSeconds')}
        name="videoSeconds"
        extra={t('settings.videoSecondsNote')}
        rules={[contractRule(introSetBody.shape.videoSeconds)]}
      >
        <InputNumber min={1} max={INTRO_VIDEO_SECONDS_MAX} className="field-full" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.userCount')}
            name="userCount"
            extra={t('settings.introFiguresNote')}
            rules={[contractRule(introSetBody.shape.userCount)]}
          >
            <InputNumber min={0} className="field-full" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.countryCount')}
            name="countryCount"
            rules={[contractRule(introSetBody.shape.countryCount)]}
          >
            <InputNumber min={0} max={300} className="field-full" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('settings.countries')} name="countries" extra={t('settings.countriesNote')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} />
      </Form.Item>
    </>
  );
}
