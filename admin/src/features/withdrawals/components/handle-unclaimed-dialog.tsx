import { adminUnclaimedHandleBody, UNCLAIMED_NOTE_MAX, type UnclaimedMoneyItem } from '@kamai/contract';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { rupees } from '../../../lib/format';
import { contractRule } from '../../../lib/rules';

/** Asks what was done with the money (kept with the item and in the audit log), then marks it handled. */
export function HandleUnclaimedDialog({
  item,
  saving,
  onHandle,
  onClose,
}: {
  item: UnclaimedMoneyItem;
  saving: boolean;
  onHandle: (note: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ note: string }>();
  return (
    <EditDialog
      form={form}
      title={t('unclaimed.handleTitle', { id: item.id })}
      okText={t('unclaimed.handle')}
      saving={saving}
      onSave={({ note }) => onHandle(note)}
      onClose={onClose}
    >
      <Alert
        className="form-note"
        type="info"
        message={t('unclaimed.handleNote', { amount: rupees(item.amount), user: item.userId })}
      />
      <Form.Item label={t('unclaimed.note')} name="note" rules={[contractRule(adminUnclaimedHandleBody.shape.note)]}>
        <Input.TextArea rows={3} maxLength={UNCLAIMED_NOTE_MAX} showCount />
      </Form.Item>
    </EditDialog>
  );
}
