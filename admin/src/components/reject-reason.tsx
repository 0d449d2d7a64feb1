import { REJECT_REASON_MAX, type RejectPreset } from '@kamai/contract';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { catalogueText } from '../i18n';
import { presetLabel } from './reject-label';

export interface RejectValues {
  preset?: RejectPreset;
  reason?: string;
}

/**
 * The reason a rejection gives: one from the translated list (each user reads it in their own language)
 * and an optional note. One of the two is needed, as the server says.
 */
export function RejectReasonFields({ presets }: { presets: readonly RejectPreset[] }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        label={t('reject.preset')}
        name="preset"
        extra={t('reject.presetHelp')}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value || String(getFieldValue('reason') ?? '').trim()) return;
              throw new Error(catalogueText('enter_reject_reason'));
            },
          }),
        ]}
      >
        <Select
          allowClear
          aria-label={t('reject.preset')}
          placeholder={t('reject.presetPlaceholder')}
          options={presets.map((value) => ({ value, label: presetLabel(value) }))}
        />
      </Form.Item>
      <Form.Item label={t('reject.note')} name="reason" extra={t('reject.noteHelp')} dependencies={['preset']}>
        <Input.TextArea rows={2} maxLength={REJECT_REASON_MAX} showCount aria-label={t('reject.note')} />
      </Form.Item>
    </>
  );
}
