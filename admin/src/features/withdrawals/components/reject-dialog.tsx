import { type AdminWithdrawalItem, WITHDRAWAL_REJECT_PRESETS } from '@kamai/contract';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { RejectReasonFields, type RejectValues } from '../../../components/reject-reason';
import { rupees } from '../../../lib/format';

/** Asks for the reason the user will read (a translated preset and/or a note), then rejects. */
export function RejectDialog({
  item,
  saving,
  onReject,
  onClose,
}: {
  item: AdminWithdrawalItem;
  saving: boolean;
  onReject: (values: RejectValues) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RejectValues>();
  return (
    <EditDialog
      form={form}
      title={`${t('withdrawals.rejectTitle', { id: item.id })} · ${rupees(item.amount)}`}
      okText={t('withdrawals.reject')}
      danger
      saving={saving}
      onSave={onReject}
      onClose={onClose}
    >
      <RejectReasonFields presets={WITHDRAWAL_REJECT_PRESETS} />
    </EditDialog>
  );
}
