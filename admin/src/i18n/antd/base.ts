import type { Locale as AntdLocale } from 'antd/es/locale';
import enUSModule from 'antd/locale/en_US';

/**
 * antd's locale files are CommonJS: the bundle hands over their `exports` (the object under `default`),
 * the test runner the object itself.
 */
export const esModule = (module: AntdLocale): AntdLocale => (module as { default?: AntdLocale }).default ?? module;
export const enUS = esModule(enUSModule);

/**
 * The texts antd draws itself, in the console's six languages. antd ships en_US, hi_IN and zh_CN; for
 * gu_IN, mr_IN and pa_IN the console builds them from en_US with the texts it shows translated: date
 * and time pickers, pagination, table filters and sorting, dialogs, confirmations, empty lists, uploads,
 * copy buttons and the form's "optional" and "required". Parts it does not use (tour, transfer, QR
 * code, colour picker) stay English.
 */
export interface AntdTexts {
  /** The dayjs locale of month and weekday names (rc-picker reads it from `DatePicker.lang.locale`). */
  dayjs: string;
  global: NonNullable<AntdLocale['global']>;
  Pagination: Record<string, string>;
  datePicker: {
    placeholder: string;
    yearPlaceholder: string;
    quarterPlaceholder: string;
    monthPlaceholder: string;
    weekPlaceholder: string;
    rangePlaceholder: [string, string];
    rangeYearPlaceholder: [string, string];
    rangeQuarterPlaceholder: [string, string];
    rangeMonthPlaceholder: [string, string];
    rangeWeekPlaceholder: [string, string];
  };
  calendar: Record<string, string>;
  timePicker: { placeholder: string; rangePlaceholder: [string, string] };
  Table: NonNullable<AntdLocale['Table']>;
  ok: string;
  cancel: string;
  Upload: NonNullable<AntdLocale['Upload']>;
  empty: string;
  Text: NonNullable<AntdLocale['Text']>;
  optional: string;
  /** `${label}` is antd's placeholder for the field's label. */
  required: string;
  validateDefault: string;
}

export function fromEnglish(locale: string, t: AntdTexts): AntdLocale {
  const english = enUS.DatePicker as NonNullable<AntdLocale['DatePicker']>;
  const datePicker = {
    ...english,
    lang: { ...english.lang, ...t.calendar, ...t.datePicker, locale: t.dayjs },
    timePickerLocale: { ...english.timePickerLocale, ...t.timePicker },
  };
  return {
    ...enUS,
    locale,
    global: { ...enUS.global, ...t.global },
    Pagination: { ...enUS.Pagination, ...t.Pagination },
    DatePicker: datePicker,
    TimePicker: { ...enUS.TimePicker, ...t.timePicker },
    Calendar: datePicker,
    Table: { ...enUS.Table, ...t.Table },
    Modal: { okText: t.ok, cancelText: t.cancel, justOkText: t.ok },
    Popconfirm: { okText: t.ok, cancelText: t.cancel },
    Upload: { ...enUS.Upload, ...t.Upload },
    Empty: { description: t.empty },
    Text: { ...enUS.Text, ...t.Text },
    Form: {
      ...enUS.Form,
      optional: t.optional,
      defaultValidateMessages: {
        ...enUS.Form?.defaultValidateMessages,
        default: t.validateDefault,
        required: t.required,
      },
    },
  };
}
