import {
  adminMismatchResolveBody,
  MISMATCH_REASON_MAX,
  type MismatchResolution,
  type PayoutMismatchItem,
} from '@kamai/contract';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { rupees } from '../../../lib/format';
import { contractRule } from '../../../lib/rules';

/** Asks for the reason (kept in the audit log), then recovers or dismisses. */
export function ResolveDialog({
  item,
  action,
  saving,
  onResolve,
  onClose,
}: {
  item: PayoutMismatchItem;
  action: MismatchResolution;
  saving: boolean;
  onResolve: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <EditDialog
      form={form}
      title={t(action === 'recover' ? 'mismatches.recoverTitle' : 'mismatches.dismissTitle', { id: item.id })}
      okText={t(action === 'recover' ? 'mismatches.recover' : 'mismatches.dismiss')}
      danger={action === 'recover'}
      saving={saving}
      onSave={({ reason }) => onResolve(reason)}
      onClose={onClose}
    >
      <Alert
        className="form-note"
        type={action === 'recover' ? 'warning' : 'info'}
        message={
          action === 'recover'
            ? t('mismatches.recoverNote', { amount: rupees(item.amount), user: item.username ?? '' })
            : t('mismatches.dismissNote')
        }
      />
      <Form.Item
        label={t('mismatches.reason')}
        name="reason"
        rules={[contractRule(adminMismatchResolveBody.shape.reason)]}
      >
        <Input.TextArea rows={3} maxLength={MISMATCH_REASON_MAX} showCount />
      </Form.Item>
    </EditDialog>
  );
}
