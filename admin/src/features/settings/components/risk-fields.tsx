import {
  adminSettingsSetBody,
  QUALIFIED_INVITE_RULES,
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
} from '@kamai/contract';
import { Col, Divider, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { catalogueText } from '../../../i18n';
import { contractRule } from '../../../lib/rules';

const risk = adminSettingsSetBody.shape.risk.unwrap().shape;

/** The fraud signals' weights (labelled by the reason the review queue shows), thresholds and the invite rule. */
export function RiskFields() {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('settings.weights')}
      </Divider>
      <Row gutter={16}>
        {RISK_SIGNALS.map((signal) => (
          <Col xs={24} sm={12} key={signal}>
            <Form.Item label={catalogueText(RISK_REASON_KEYS[signal])} name={['weights', signal]}>
              <InputNumber min={0} max={RISK_SCORE_MAX} className="field-full" />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Divider />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Form.Item label={t('settings.idleInvitees')} name="idleInvitees" rules={[contractRule(risk.idleInvitees)]}>
            <InputNumber min={1} className="field-full" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.inviteShare')}
            name="inviteShareBps"
            rules={[contractRule(risk.inviteShareBps)]}
          >
            <InputNumber min={0} max={10_000} className="field-full" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.quickHours')}
            name="quickWithdrawalHours"
            rules={[contractRule(risk.quickWithdrawalHours)]}
          >
            <InputNumber min={0} className="field-full" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item label={t('settings.qualifiedInvite')} name="qualifiedInvite">
            <Select
              options={QUALIFIED_INVITE_RULES.map((value) => ({ value, label: t(`settings.qualified.${value}`) }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.secondApproval')}
            name="secondApprovalAbove"
            rules={[contractRule(risk.secondApprovalAbove)]}
          >
            <Input inputMode="decimal" prefix="₹" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            label={t('settings.creditApproval')}
            name="creditApprovalAbove"
            rules={[contractRule(risk.creditApprovalAbove)]}
          >
            <Input inputMode="decimal" prefix="₹" />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
