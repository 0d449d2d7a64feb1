import { Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal form: validates its fields with their rules, then hands the values to `onSave`; the OK
 * button spins while `saving`. The fields are children (`Form.Item`s) and the form instance is the
 * caller's, so it can watch or set a field (an upload fills in its URL).
 */
export function EditDialog<V extends object>({
  title,
  form,
  initialValues,
  saving,
  onSave,
  onClose,
  okText,
  danger,
  width,
  children,
}: {
  title: ReactNode;
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  saving: boolean;
  onSave: (values: V) => void;
  onClose: () => void;
  okText?: string;
  danger?: boolean;
  width?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      width={width}
      title={title}
      okText={okText ?? t('actions.save')}
      okButtonProps={{ loading: saving, danger }}
      cancelText={t('actions.cancel')}
      onOk={() => void form.validateFields().then(onSave, () => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<V> form={form} layout="vertical" initialValues={initialValues} preserve={false}>
        {children}
      </Form>
    </Modal>
  );
}
