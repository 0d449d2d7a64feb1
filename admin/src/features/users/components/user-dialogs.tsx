import {
  adminUserResetPassBody,
  CREDIT_TEXT_PRESET_TEXT,
  CREDIT_TEXT_PRESETS,
  CREDIT_USER_TEXT_MAX,
  type CreditTextPreset,
  creditAddBody,
} from '@kamai/contract';
import { Alert, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { catalogueText } from '../../../i18n';
import { contractRule } from '../../../lib/rules';
import { useAddCredit, useResetPassword } from '../api/user-actions';

/**
 * A manual credit: the amount, an internal note (staff only) and, optionally, what the user's income
 * record shows: a text picked from the presets, which the user reads in their own language, and the
 * operator's own words after it (without either the user sees a generic "credited by Kamai" label,
 * never the note). The dialog says first that a credit is compensation: it pays no rebate and is no
 * income for tasks.
 */
export function CreditDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: string; remark: string; userPreset?: CreditTextPreset; userText?: string }>();
  const add = useAddCredit(userId, onClose);
  return (
    <EditDialog
      form={form}
      title={t('users.creditAdd')}
      okText={t('actions.confirm')}
      saving={add.isPending}
      onSave={(values) => add.mutate(values)}
      onClose={onClose}
    >
      <Alert type="info" showIcon title={t('users.creditIsCompensation')} className="toolbar" />
      <Form.Item label={t('users.amount')} name="amount" rules={[contractRule(creditAddBody.shape.amount)]}>
        <Input inputMode="decimal" />
      </Form.Item>
      <Form.Item
        label={t('users.remark')}
        name="remark"
        extra={t('users.remarkHelp')}
        rules={[contractRule(creditAddBody.shape.remark)]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item label={t('users.userPreset')} name="userPreset" extra={t('users.userPresetHelp')}>
        <Select
          allowClear
          options={CREDIT_TEXT_PRESETS.map((preset) => ({
            value: preset,
            label: catalogueText(CREDIT_TEXT_PRESET_TEXT[preset]),
          }))}
        />
      </Form.Item>
      <Form.Item
        label={t('users.userText')}
        name="userText"
        extra={t('users.userTextHelp')}
        rules={[contractRule(creditAddBody.shape.userText)]}
      >
        <Input maxLength={CREDIT_USER_TEXT_MAX} />
      </Form.Item>
    </EditDialog>
  );
}

/** Sets a new password for the user (their sessions end). */
export function PasswordDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const reset = useResetPassword(userId, onClose);
  return (
    <EditDialog
      form={form}
      title={t('users.resetPassword')}
      okText={t('actions.confirm')}
      saving={reset.isPending}
      onSave={(values) => reset.mutate(values)}
      onClose={onClose}
    >
      <Form.Item
        label={t('users.newPassword')}
        name="password"
        extra={t('users.passwordNote')}
        rules={[contractRule(adminUserResetPassBody.shape.password)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </EditDialog>
  );
}
