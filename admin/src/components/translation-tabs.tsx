import { LOCALE_NAMES, NOTICE_TRANSLATION_LOCALES } from '@kamai/contract';
import { Form, Input, Tabs, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

/** One per-locale text of a form: its values live under `name` (a map keyed by locale). */
export interface TranslatedField {
  /** The form field holding the map, e.g. `titles`. */
  name: string;
  /** The label for one language, e.g. "Title in Hindi". */
  label: (language: string) => string;
  maxLength: number;
  /** A text area of this many rows instead of a one-line input. */
  rows?: number;
  /** When true, a blank translation of this field does not flag the tab (e.g. an optional link). */
  optional?: boolean;
  rules?: Rule[];
  inputMode?: 'url' | 'text';
}

/**
 * The translations of a form's texts, one tab per language other than English; a tab is flagged
 * "missing" while a required text of that language is blank (its readers then see English).
 */
export function TranslationTabs({ fields, testIdPrefix }: { fields: TranslatedField[]; testIdPrefix: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  // Watching the whole store keeps the flags live as the operator types.
  const values = Form.useWatch([], form) as Record<string, Partial<Record<string, string>> | undefined> | undefined;
  return (
    <Tabs
      size="small"
      // Five labels with their "missing" flags fit a 640 px dialog only with a narrower gutter than
      // antd's 32 px; an overflowing bar hides the last language behind "…" and moves tabs under the
      // pointer while it measures them.
      tabBarGutter={16}
      items={NOTICE_TRANSLATION_LOCALES.map((locale) => {
        const missing = fields.some((field) => !field.optional && !values?.[field.name]?.[locale]?.trim());
        return {
          key: locale,
          forceRender: true,
          label: (
            <span data-testid={`${testIdPrefix}-tab-${locale}`}>
              {LOCALE_NAMES[locale]}{' '}
              {missing && (
                <Tag color="orange" className="tab-flag">
                  {t('notices.missing')}
                </Tag>
              )}
            </span>
          ),
          children: fields.map((field) => (
            <Form.Item
              key={field.name}
              label={field.label(LOCALE_NAMES[locale])}
              name={[field.name, locale]}
              rules={field.rules}
            >
              {field.rows ? (
                <Input.TextArea rows={field.rows} maxLength={field.maxLength} />
              ) : (
                <Input maxLength={field.maxLength} inputMode={field.inputMode} />
              )}
            </Form.Item>
          )),
        };
      })}
    />
  );
}
