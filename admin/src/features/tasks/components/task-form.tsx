import {
  type AdminTask,
  LOCALE_NAMES,
  type Locale,
  TASK_CONDITION_TYPES,
  TASK_DESCRIPTION_MAX,
  TASK_LINK_MAX,
  TASK_PROOF_TYPES,
  TASK_SECTIONS,
  type TaskConditionType,
  type TaskProofType,
  type TaskSection,
  type TaskVerificationKind,
  taskAddBody,
  taskLinkField,
} from '@kamai/contract';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EditDialog } from '../../../components/edit-dialog';
import { TranslationTabs } from '../../../components/translation-tabs';
import { contractRule } from '../../../lib/rules';
import { useSaveTask } from '../api/tasks';

interface Values {
  titles: Partial<Record<Locale, string>>;
  descriptions: Partial<Record<Locale, string>>;
  links: Partial<Record<Locale, string>>;
  section: TaskSection;
  reward: string;
  window?: [Dayjs | null, Dayjs | null] | null;
  sort?: number;
  active: boolean;
  kind?: TaskVerificationKind;
  proof?: TaskProofType;
  condition?: TaskConditionType;
  count?: number;
  /** online (linked numbers), qualified (invites) or paid (withdrawals). */
  strict?: boolean;
  amount?: string;
  days?: number;
}

/** The verification the form describes, as the contract wants it. */
function verificationOf(values: Values) {
  if (values.kind === 'proof') return { kind: 'proof' as const, proof: values.proof ?? 'either' };
  const count = values.count ?? 1;
  const strict = values.strict ?? false;
  switch (values.condition) {
    case 'linked_accounts':
      return { kind: 'automatic' as const, condition: { type: 'linked_accounts' as const, count, online: strict } };
    case 'invites':
      return { kind: 'automatic' as const, condition: { type: 'invites' as const, count, qualified: strict } };
    case 'withdrawals':
      return { kind: 'automatic' as const, condition: { type: 'withdrawals' as const, count, paid: strict } };
    case 'income':
      return {
        kind: 'automatic' as const,
        condition: { type: 'income' as const, amount: values.amount ?? '', days: values.days ?? 30 },
      };
    case 'survey':
    case 'intro':
      return { kind: 'automatic' as const, condition: { type: values.condition } };
    default:
      return undefined;
  }
}

/** The form's fields for a stored verification. */
function verificationValues(task: AdminTask | undefined): Partial<Values> {
  const v = task?.verification;
  if (!v) return {};
  if (v.kind === 'proof') return { kind: 'proof', proof: v.proof ?? 'either' };
  const c = v.condition;
  if (!c || c.type === 'register') return { kind: 'automatic' };
  return {
    kind: 'automatic',
    condition: c.type,
    count: c.count,
    strict: c.online ?? c.qualified ?? c.paid ?? false,
    amount: c.amount,
    days: c.days,
  };
}

const fields = taskAddBody.shape;
/** One link as the contract checks it. */
const linkRule = taskLinkField.optional();

/** Only the texts the operator wrote (a blank one means "show English"). */
function written(texts: Partial<Record<Locale, string>> | undefined) {
  return Object.fromEntries(Object.entries(texts ?? {}).filter(([, v]) => v && v.trim() !== ''));
}

/**
 * A new task, or one to edit: titles per language (English required), reward, how it is verified (an
 * automatic condition with its target, or proof an operator approves), window, order.
 */
export function TaskForm({ task, onClose }: { task: AdminTask | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const existing = task === 'new' ? undefined : task;
  const save = useSaveTask(existing?.id, onClose);
  const system = existing?.system ?? false;
  const kind = Form.useWatch('kind', form);
  const condition = Form.useWatch('condition', form);
  const englishDescription = Form.useWatch(['descriptions', 'en_US'], form);
  const submit = (values: Values) =>
    save.mutate({
      titles: written(values.titles),
      descriptions: written(values.descriptions),
      links: written(values.links),
      section: values.section,
      reward: values.reward,
      startsAt: values.window?.[0]?.toISOString() ?? null,
      endsAt: values.window?.[1]?.toISOString() ?? null,
      sort: values.sort ?? 0,
      active: values.active,
      // A system task's check is fixed; an operator task's target follows its condition.
      ...(system ? {} : { verification: verificationOf(values) as never }),
    } as never);
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
        descriptions: existing?.descriptions ?? {},
        links: existing?.links ?? {},
        section: existing?.section ?? 'hot',
        reward: existing?.reward,
        window: existing
          ? [existing.startsAt ? dayjs(existing.startsAt) : null, existing.endsAt ? dayjs(existing.endsAt) : null]
          : undefined,
        sort: existing?.sort ?? 0,
        active: existing?.active ?? true,
        ...verificationValues(existing),
      }}
    >
      <Form.Item
        label={t('tasks.titleIn', { language: LOCALE_NAMES.en_US })}
        name={['titles', 'en_US']}
        rules={[{ required: true, whitespace: true, message: t('tasks.englishRequired') }]}
      >
        <Input maxLength={120} />
      </Form.Item>
      <Form.Item label={t('tasks.descriptionIn', { language: LOCALE_NAMES.en_US })} name={['descriptions', 'en_US']}>
        <Input.TextArea rows={3} maxLength={TASK_DESCRIPTION_MAX} />
      </Form.Item>
      <Form.Item
        label={t('tasks.linkIn', { language: LOCALE_NAMES.en_US })}
        name={['links', 'en_US']}
        extra={t('tasks.linkHint')}
        rules={[contractRule(linkRule)]}
      >
        <Input inputMode="url" maxLength={TASK_LINK_MAX} placeholder="https://" />
      </Form.Item>
      <Form.Item label={t('notices.translations')} extra={t('notices.translationsHint')}>
        <TranslationTabs
          testIdPrefix="task"
          fields={[
            { name: 'titles', label: (language) => t('tasks.titleIn', { language }), maxLength: 120 },
            {
              name: 'descriptions',
              label: (language) => t('tasks.descriptionIn', { language }),
              maxLength: TASK_DESCRIPTION_MAX,
              rows: 3,
              // Flagged only when there is an English description to translate.
              optional: !englishDescription?.trim(),
            },
            {
              name: 'links',
              label: (language) => t('tasks.linkIn', { language }),
              maxLength: TASK_LINK_MAX,
              optional: true,
              inputMode: 'url',
              rules: [contractRule(linkRule)],
            },
          ]}
        />
      </Form.Item>
      <div className="form-grid">
        <Form.Item label={t('tasks.section')} name="section">
          <Select options={TASK_SECTIONS.map((s) => ({ value: s, label: t(`sections.${s}`) }))} />
        </Form.Item>
        <Form.Item label={t('tasks.reward')} name="reward" rules={[contractRule(fields.reward)]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item
          label={t('tasks.verification')}
          name="kind"
          extra={t('tasks.verificationHelp')}
          rules={[{ required: true, message: t('tasks.verificationRequired') }]}
        >
          <Select
            disabled={system}
            options={(['automatic', 'proof'] as const).map((k) => ({ value: k, label: t(`tasks.kinds.${k}`) }))}
          />
        </Form.Item>
        {kind === 'proof' && (
          <Form.Item label={t('tasks.proofType')} name="proof" initialValue="either">
            <Select options={TASK_PROOF_TYPES.map((p) => ({ value: p, label: t(`tasks.proofTypes.${p}`) }))} />
          </Form.Item>
        )}
        {kind === 'automatic' && !system && (
          <Form.Item
            label={t('tasks.condition')}
            name="condition"
            rules={[{ required: true, message: t('tasks.conditionRequired') }]}
          >
            <Select options={TASK_CONDITION_TYPES.map((c) => ({ value: c, label: t(`tasks.conditions.${c}`) }))} />
          </Form.Item>
        )}
        {kind === 'automatic' && !system && ['linked_accounts', 'invites', 'withdrawals'].includes(condition ?? '') && (
          <>
            <Form.Item label={t('tasks.target')} name="count" initialValue={1}>
              <InputNumber min={1} max={1000} className="field-full" />
            </Form.Item>
            <Form.Item label={t(`tasks.strict.${condition}`)} name="strict" valuePropName="checked">
              <Switch />
            </Form.Item>
          </>
        )}
        {kind === 'automatic' && !system && condition === 'income' && (
          <>
            <Form.Item label={t('tasks.incomeAmount')} name="amount" rules={[{ required: true }]}>
              <Input inputMode="decimal" />
            </Form.Item>
            <Form.Item label={t('tasks.incomeDays')} name="days" initialValue={30}>
              <InputNumber min={1} max={365} className="field-full" />
            </Form.Item>
          </>
        )}
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
