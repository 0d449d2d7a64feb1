import {
  type AdminTask,
  LOCALE_NAMES,
  LOCALES,
  type Locale,
  TASK_SECTIONS,
  type TaskSection,
  taskAddBody,
} from '@kamai/contract';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { contractRule } from '../../../lib/rules';
import { useSaveTask } from '../api/tasks';

interface Values {
  titles: Partial<Record<Locale, string>>;
  section: TaskSection;
  reward: string;
  targetCount?: number;
  window?: [Dayjs | null, Dayjs | null] | null;
  sort?: number;
  active: boolean;
}

const fields = taskAddBody.shape;

/** A new task, or one to edit: titles per language (English required), reward, target, window, order. */
export function TaskForm({ task, onClose }: { task: AdminTask | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const existing = task === 'new' ? undefined : task;
  const save = useSaveTask(existing?.id, onClose);
  const submit = (values: Values) =>
    save.mutate({
      titles: Object.fromEntries(Object.entries(values.titles).filter(([, v]) => v && v.trim() !== '')),
      section: values.section,
      reward: values.reward,
      targetCount: values.targetCount ?? 1,
      startsAt: values.window?.[0]?.toISOString() ?? null,
      endsAt: values.window?.[1]?.toISOString() ?? null,
      sort: values.sort ?? 0,
      active: values.active,
    });
  return (
    <EditDialog<Values>
      form={form}
      width={640}
      title={existing ? t('tasks.editTitle', { id: existing.id }) : t('tasks.new')}
      saving={save.isPending}
      onSave={submit}
      onClose={onClose}
      initialValues={{
        titles: existing?.titles ?? {},
        section: existing?.section ?? 'hot',
        reward: existing?.reward,
        targetCount: existing?.targetCount ?? 1,
        window: existing
          ? [existing.startsAt ? dayjs(existing.startsAt) : null, existing.endsAt ? dayjs(existing.endsAt) : null]
          : undefined,
        sort: existing?.sort ?? 0,
        active: existing?.active ?? true,
      }}
    >
      <div className="form-grid">
        {LOCALES.map((locale) => (
          <Form.Item
            key={locale}
            label={t('tasks.titleIn', { language: LOCALE_NAMES[locale] })}
            name={['titles', locale]}
            rules={
              locale === 'en_US' ? [{ required: true, whitespace: true, message: t('tasks.englishRequired') }] : []
            }
          >
            <Input maxLength={120} />
          </Form.Item>
        ))}
        <Form.Item label={t('tasks.section')} name="section">
          <Select options={TASK_SECTIONS.map((s) => ({ value: s, label: t(`sections.${s}`) }))} />
        </Form.Item>
        <Form.Item label={t('tasks.reward')} name="reward" rules={[contractRule(fields.reward)]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item label={t('tasks.target')} name="targetCount">
          <InputNumber min={1} max={1000} className="field-full" />
        </Form.Item>
        <Form.Item label={t('tasks.sort')} name="sort">
          <InputNumber min={-10000} max={10000} className="field-full" />
        </Form.Item>
        <Form.Item label={t('tasks.window')} name="window">
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} className="field-full" />
        </Form.Item>
        <Form.Item label={t('tasks.active')} name="active" valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
    </EditDialog>
  );
}
