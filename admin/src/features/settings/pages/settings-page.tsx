import {
  ACCOUNT_CHECKS_A_DAY_MAX,
  adminSettingsSetBody,
  BPS_MAX,
  DAILY_COUNT_MAX,
  linkedRateBody,
  PAYOUT_HOURS_MAX,
  percentToBasisPoints,
  rebateSettings,
} from '@kamai/contract';
import { Alert, Col, Form, Input, InputNumber, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { contractRule } from '../../../lib/rules';
import { accountChecks, introPage, linkedRate, rebateRates, riskSettings, withdrawalLimits } from '../api/settings';
import { IntroFields } from '../components/intro-fields';
import { RiskFields } from '../components/risk-fields';
import { SettingsCard } from '../components/settings-card';

const limits = adminSettingsSetBody.shape.withdrawal.unwrap().shape;
const checks = adminSettingsSetBody.shape.accountValidation.unwrap().shape;
/** A referral rate as a percentage, checked as the basis points the server stores (the contract converts). */
const percentRule = z
  .number()
  .refine(
    (percent) => rebateSettings.shape.level1Bps.safeParse(percentToBasisPoints(percent)).success,
    'rebate_bps_range',
  );
export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <Alert type="info" showIcon message={t('control.settingsHint')} />
      </Col>
      <Col xs={24} lg={12}>
        <SettingsCard title={t('settings.withdrawal')} group={withdrawalLimits}>
          <Row gutter={16}>
            <Col xs={24} lg={12}>
              <Form.Item label={t('settings.min')} name="min" rules={[contractRule(limits.min)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item label={t('settings.max')} name="max" rules={[contractRule(limits.max)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item label={t('settings.dailyCount')} name="dailyCount" rules={[contractRule(limits.dailyCount)]}>
                <InputNumber min={1} max={DAILY_COUNT_MAX} className="field-full" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item label={t('settings.dailyTotal')} name="dailyTotal" rules={[contractRule(limits.dailyTotal)]}>
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                label={t('settings.fee')}
                name="fee"
                extra={t('settings.feeNote')}
                rules={[contractRule(limits.fee)]}
              >
                <Input inputMode="decimal" prefix="₹" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
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
      <Col xs={24} lg={12}>
        <SettingsCard title={t('settings.rebate')} group={rebateRates}>
          <Form.Item
            label={t('settings.level1Percent')}
            name="level1Percent"
            extra={t('settings.percentNote')}
            rules={[contractRule(percentRule)]}
          >
            <InputNumber min={0} max={BPS_MAX / 100} step={0.01} suffix="%" className="field-full" />
          </Form.Item>
          <Form.Item label={t('settings.level2Percent')} name="level2Percent" rules={[contractRule(percentRule)]}>
            <InputNumber min={0} max={BPS_MAX / 100} step={0.01} suffix="%" className="field-full" />
          </Form.Item>
        </SettingsCard>
      </Col>
      <Col xs={24} lg={12}>
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
      <Col xs={24} lg={12}>
        <SettingsCard title={t('settings.intro')} group={introPage}>
          <IntroFields />
        </SettingsCard>
      </Col>
      <Col xs={24} lg={12}>
        <SettingsCard title={t('settings.accountChecks')} group={accountChecks}>
          <Form.Item
            label={t('settings.checksPerDay')}
            name="dailyLimit"
            extra={t('settings.checksPerDayNote')}
            rules={[contractRule(checks.dailyLimit)]}
          >
            <InputNumber min={1} max={ACCOUNT_CHECKS_A_DAY_MAX} className="field-full" />
          </Form.Item>
          <Form.Item
            label={t('settings.checkFee')}
            name="fee"
            extra={t('settings.checkFeeNote')}
            rules={[contractRule(checks.fee)]}
          >
            <Input inputMode="decimal" prefix="₹" />
          </Form.Item>
          <Form.Item
            label={t('settings.nameMatchMin')}
            name="nameMatchMin"
            extra={t('settings.nameMatchMinNote')}
            rules={[contractRule(checks.nameMatchMin)]}
          >
            <InputNumber min={0} max={100} suffix="%" className="field-full" />
          </Form.Item>
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
