import {
  adminSettingsSetBody,
  BPS_MAX,
  DAILY_COUNT_MAX,
  linkedRateBody,
  PAYOUT_HOURS_MAX,
  rebateSettings,
} from '@kamai/contract';
import { Col, Form, Input, InputNumber, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractRule } from '../../../lib/rules';
import { introPage, linkedRate, rebateRates, riskSettings, withdrawalLimits } from '../api/settings';
import { IntroFields } from '../components/intro-fields';
import { RiskFields } from '../components/risk-fields';
import { SettingsCard } from '../components/settings-card';

const limits = adminSettingsSetBody.shape.withdrawal.unwrap().shape;

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      <Col span={12}>
        <SettingsCard title={t('settings.withdrawal')} group={withdrawalLimits}>
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
                <InputNumber min={1} max={DAILY_COUNT_MAX} className="field-full" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t('settings.dailyTotal')} name="dailyTotal" rules={[contractRule(limits.dailyTotal)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                label={t('settings.fee')}
                name="fee"
                extra={t('settings.feeNote')}
                rules={[contractRule(limits.fee)]}
              >
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                label={t('settings.payoutHours')}
                name="payoutHours"
                extra={t('settings.payoutHoursNote')}
                rules={[contractRule(limits.payoutHours)]}
              >
                <InputNumber min={1} max={PAYOUT_HOURS_MAX} className="field-full" />
              </Form.Item>
            </Col>
          </Row>
        </SettingsCard>
      </Col>
      <Col span={12}>
        <SettingsCard title={t('settings.rebate')} group={rebateRates}>
          <Form.Item
            label={t('settings.level1')}
            name="level1Bps"
            extra={t('settings.bpsNote')}
            rules={[contractRule(rebateSettings.shape.level1Bps)]}
          >
            <InputNumber min={0} max={BPS_MAX} className="field-full" />
          </Form.Item>
          <Form.Item
            label={t('settings.level2')}
            name="level2Bps"
            rules={[contractRule(rebateSettings.shape.level2Bps)]}
          >
            <InputNumber min={0} max={BPS_MAX} className="field-full" />
          </Form.Item>
        </SettingsCard>
      </Col>
      <Col span={12}>
        <SettingsCard title={t('settings.linkedRate')} group={linkedRate}>
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
        <SettingsCard title={t('settings.intro')} group={introPage}>
          <IntroFields />
        </SettingsCard>
      </Col>
      <Col span={24}>
        <SettingsCard title={t('settings.risk')} group={riskSettings}>
          <RiskFields />
        </SettingsCard>
      </Col>
    </Row>
  );
}
