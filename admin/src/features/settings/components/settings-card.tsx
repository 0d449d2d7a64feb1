import { Button, Card, Form, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { useCan } from '../../../lib/roles';
import { type SettingsGroup, useSaveSettings, useSettings } from '../api/settings';

/** A settings card: loads its group, saves it, read-only for a role that may not change it. */
export function SettingsCard<V extends object>({
  title,
  group,
  children,
}: {
  title: string;
  group: SettingsGroup<V>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const [form] = Form.useForm<V>();
  const query = useSettings(group);
  const save = useSaveSettings(group);
  const editable = can(group.setRoute);
  return (
    <Card title={title} className="card-full">
      {query.isError ? (
        messageOf(query.error)
      ) : !query.data ? (
        <Skeleton active />
      ) : (
        <Form<V>
          form={form}
          layout="vertical"
          initialValues={query.data}
          disabled={!editable}
          onFinish={(values) => save.mutate(values)}
          key={JSON.stringify(query.data)}
        >
          {children}
          {editable && (
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('actions.save')}
            </Button>
          )}
        </Form>
      )}
    </Card>
  );
}
