import { type AdminWithdrawalItem, adminWithdrawReviewBody, REJECT_REASON_MAX } from '@kamai/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { contractRule } from '../../../lib/rules';

/** Rejecting needs a reason (the body's own refine says so on the whole object). */
const reasonSchema = adminWithdrawReviewBody.shape.reason.refine((v) => v !== '', 'enter_reject_reason');

/** Asks for the reason the user will read, then rejects. */
export function RejectDialog({
  item,
  saving,
  onReject,
  onClose,
}: {
  item: AdminWithdrawalItem;
  saving: boolean;
  onReject: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <EditDialog
      form={form}
      title={t('withdrawals.rejectTitle', { id: item.id })}
      okText={t('withdrawals.reject')}
      danger
      saving={saving}
      onSave={({ reason }) => onReject(reason)}
      onClose={onClose}
    >
      <Form.Item label={t('withdrawals.rejectReason')} name="reason" rules={[contractRule(reasonSchema)]}>
        <Input.TextArea rows={3} maxLength={REJECT_REASON_MAX} showCount />
      </Form.Item>
    </EditDialog>
  );
}
