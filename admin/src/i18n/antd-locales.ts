// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${label}` is antd's own placeholder in form messages.
import type { Locale } from '@kamai/contract';
import type { Locale as AntdLocale } from 'antd/es/locale';
import enUSModule from 'antd/locale/en_US';
import hiINModule from 'antd/locale/hi_IN';
import zhCNModule from 'antd/locale/zh_CN';
// The month and weekday names of the date pickers (the picker's `locale` names the dayjs locale).
import 'dayjs/locale/gu';
import 'dayjs/locale/hi';
import 'dayjs/locale/mr';
import 'dayjs/locale/pa-in';
import 'dayjs/locale/zh-cn';

/**
 * antd's locale files are CommonJS: the bundle hands over their `exports` (the object under `default`),
 * the test runner the object itself.
 */
const esModule = (module: AntdLocale): AntdLocale => (module as { default?: AntdLocale }).default ?? module;
const enUS = esModule(enUSModule);
const hiIN = esModule(hiINModule);
const zhCN = esModule(zhCNModule);

/**
 * The texts antd draws itself, in the console's six languages. antd ships en_US, hi_IN and zh_CN; for
 * gu_IN, mr_IN and pa_IN the console builds them from en_US with the texts it shows translated: date
 * and time pickers, pagination, table filters and sorting, dialogs, confirmations, empty lists, uploads,
 * copy buttons and the form's "optional" and "required". Parts it does not use (tour, transfer, QR
 * code, colour picker) stay English.
 */
interface AntdTexts {
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

function fromEnglish(locale: string, t: AntdTexts): AntdLocale {
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

const guIN = fromEnglish('gu', {
  dayjs: 'gu',
  global: {
    placeholder: 'કૃપા કરીને પસંદ કરો',
    close: 'બંધ કરો',
    sortable: 'ક્રમમાં ગોઠવી શકાય',
    show: 'બતાવો',
    hide: 'છુપાવો',
  },
  Pagination: {
    items_per_page: '/ પાનું',
    jump_to: 'પાના પર જાઓ',
    jump_to_confirm: 'પુષ્ટિ કરો',
    page: 'પાનું',
    prev_page: 'પાછલું પાનું',
    next_page: 'આગલું પાનું',
    prev_5: 'પાછલાં 5 પાનાં',
    next_5: 'આગલાં 5 પાનાં',
    prev_3: 'પાછલાં 3 પાનાં',
    next_3: 'આગલાં 3 પાનાં',
    page_size: 'પાનાનું કદ',
  },
  datePicker: {
    placeholder: 'તારીખ પસંદ કરો',
    yearPlaceholder: 'વર્ષ પસંદ કરો',
    quarterPlaceholder: 'ત્રિમાસિક પસંદ કરો',
    monthPlaceholder: 'મહિનો પસંદ કરો',
    weekPlaceholder: 'અઠવાડિયું પસંદ કરો',
    rangePlaceholder: ['શરૂઆતની તારીખ', 'અંતિમ તારીખ'],
    rangeYearPlaceholder: ['શરૂઆતનું વર્ષ', 'અંતિમ વર્ષ'],
    rangeQuarterPlaceholder: ['શરૂઆતનું ત્રિમાસિક', 'અંતિમ ત્રિમાસિક'],
    rangeMonthPlaceholder: ['શરૂઆતનો મહિનો', 'અંતિમ મહિનો'],
    rangeWeekPlaceholder: ['શરૂઆતનું અઠવાડિયું', 'અંતિમ અઠવાડિયું'],
  },
  calendar: {
    today: 'આજે',
    now: 'હમણાં',
    backToToday: 'આજ પર પાછા જાઓ',
    ok: 'ઠીક છે',
    clear: 'સાફ કરો',
    week: 'અઠવાડિયું',
    month: 'મહિનો',
    year: 'વર્ષ',
    timeSelect: 'સમય પસંદ કરો',
    dateSelect: 'તારીખ પસંદ કરો',
    weekSelect: 'અઠવાડિયું પસંદ કરો',
    monthSelect: 'મહિનો પસંદ કરો',
    yearSelect: 'વર્ષ પસંદ કરો',
    decadeSelect: 'દાયકો પસંદ કરો',
    previousMonth: 'પાછલો મહિનો',
    nextMonth: 'આવતો મહિનો',
    previousYear: 'પાછલું વર્ષ',
    nextYear: 'આવતું વર્ષ',
    previousDecade: 'પાછલો દાયકો',
    nextDecade: 'આવતો દાયકો',
    previousCentury: 'પાછલી સદી',
    nextCentury: 'આવતી સદી',
  },
  timePicker: { placeholder: 'સમય પસંદ કરો', rangePlaceholder: ['શરૂઆતનો સમય', 'અંતિમ સમય'] },
  Table: {
    filterTitle: 'ફિલ્ટર મેનુ',
    filterConfirm: 'ઠીક છે',
    filterReset: 'રીસેટ કરો',
    filterEmptyText: 'કોઈ ફિલ્ટર નથી',
    filterCheckAll: 'બધી આઇટમ પસંદ કરો',
    filterSearchPlaceholder: 'ફિલ્ટરમાં શોધો',
    emptyText: 'કોઈ માહિતી નથી',
    selectAll: 'આ પાનું પસંદ કરો',
    selectInvert: 'આ પાનાની પસંદગી ઉલટાવો',
    selectNone: 'બધી પસંદગી સાફ કરો',
    selectionAll: 'બધી માહિતી પસંદ કરો',
    sortTitle: 'ક્રમમાં ગોઠવો',
    expand: 'પંક્તિ ખોલો',
    collapse: 'પંક્તિ બંધ કરો',
    triggerDesc: 'ઊતરતા ક્રમમાં ગોઠવવા ક્લિક કરો',
    triggerAsc: 'ચડતા ક્રમમાં ગોઠવવા ક્લિક કરો',
    cancelSort: 'ક્રમ રદ કરવા ક્લિક કરો',
  },
  ok: 'ઠીક છે',
  cancel: 'રદ કરો',
  Upload: {
    uploading: 'અપલોડ થઈ રહ્યું છે...',
    removeFile: 'ફાઇલ દૂર કરો',
    uploadError: 'અપલોડમાં ભૂલ',
    previewFile: 'ફાઇલનું પૂર્વદર્શન',
    downloadFile: 'ફાઇલ ડાઉનલોડ કરો',
  },
  empty: 'કોઈ માહિતી નથી',
  Text: { edit: 'ફેરફાર કરો', copy: 'નકલ કરો', copied: 'નકલ થઈ', expand: 'વધુ બતાવો', collapse: 'ઓછું બતાવો' },
  optional: '(વૈકલ્પિક)',
  required: 'કૃપા કરીને ${label} દાખલ કરો',
  validateDefault: '${label} ની ચકાસણીમાં ભૂલ',
});

const mrIN = fromEnglish('mr', {
  dayjs: 'mr',
  global: { placeholder: 'कृपया निवडा', close: 'बंद करा', sortable: 'क्रमाने लावता येते', show: 'दाखवा', hide: 'लपवा' },
  Pagination: {
    items_per_page: '/ पान',
    jump_to: 'पानावर जा',
    jump_to_confirm: 'पुष्टी करा',
    page: 'पान',
    prev_page: 'मागील पान',
    next_page: 'पुढील पान',
    prev_5: 'मागील 5 पाने',
    next_5: 'पुढील 5 पाने',
    prev_3: 'मागील 3 पाने',
    next_3: 'पुढील 3 पाने',
    page_size: 'पानाचा आकार',
  },
  datePicker: {
    placeholder: 'तारीख निवडा',
    yearPlaceholder: 'वर्ष निवडा',
    quarterPlaceholder: 'तिमाही निवडा',
    monthPlaceholder: 'महिना निवडा',
    weekPlaceholder: 'आठवडा निवडा',
    rangePlaceholder: ['सुरुवातीची तारीख', 'शेवटची तारीख'],
    rangeYearPlaceholder: ['सुरुवातीचे वर्ष', 'शेवटचे वर्ष'],
    rangeQuarterPlaceholder: ['सुरुवातीची तिमाही', 'शेवटची तिमाही'],
    rangeMonthPlaceholder: ['सुरुवातीचा महिना', 'शेवटचा महिना'],
    rangeWeekPlaceholder: ['सुरुवातीचा आठवडा', 'शेवटचा आठवडा'],
  },
  calendar: {
    today: 'आज',
    now: 'आत्ता',
    backToToday: 'आजच्या दिवसावर परत जा',
    ok: 'ठीक आहे',
    clear: 'साफ करा',
    week: 'आठवडा',
    month: 'महिना',
    year: 'वर्ष',
    timeSelect: 'वेळ निवडा',
    dateSelect: 'तारीख निवडा',
    weekSelect: 'आठवडा निवडा',
    monthSelect: 'महिना निवडा',
    yearSelect: 'वर्ष निवडा',
    decadeSelect: 'दशक निवडा',
    previousMonth: 'मागील महिना',
    nextMonth: 'पुढील महिना',
    previousYear: 'मागील वर्ष',
    nextYear: 'पुढील वर्ष',
    previousDecade: 'मागील दशक',
    nextDecade: 'पुढील दशक',
    previousCentury: 'मागील शतक',
    nextCentury: 'पुढील शतक',
  },
  timePicker: { placeholder: 'वेळ निवडा', rangePlaceholder: ['सुरुवातीची वेळ', 'शेवटची वेळ'] },
  Table: {
    filterTitle: 'फिल्टर मेनू',
    filterConfirm: 'ठीक आहे',
    filterReset: 'रीसेट करा',
    filterEmptyText: 'कोणतेही फिल्टर नाहीत',
    filterCheckAll: 'सर्व आयटम निवडा',
    filterSearchPlaceholder: 'फिल्टरमध्ये शोधा',
    emptyText: 'माहिती नाही',
    selectAll: 'हे पान निवडा',
    selectInvert: 'या पानाची निवड उलटा',
    selectNone: 'सर्व निवड साफ करा',
    selectionAll: 'सर्व माहिती निवडा',
    sortTitle: 'क्रमाने लावा',
    expand: 'ओळ उघडा',
    collapse: 'ओळ मिटवा',
    triggerDesc: 'उतरत्या क्रमाने लावण्यासाठी क्लिक करा',
    triggerAsc: 'चढत्या क्रमाने लावण्यासाठी क्लिक करा',
    cancelSort: 'क्रम रद्द करण्यासाठी क्लिक करा',
  },
  ok: 'ठीक आहे',
  cancel: 'रद्द करा',
  Upload: {
    uploading: 'अपलोड होत आहे...',
    removeFile: 'फाइल काढा',
    uploadError: 'अपलोड त्रुटी',
    previewFile: 'फाइलचे पूर्वावलोकन',
    downloadFile: 'फाइल डाउनलोड करा',
  },
  empty: 'माहिती नाही',
  Text: { edit: 'संपादित करा', copy: 'कॉपी करा', copied: 'कॉपी झाले', expand: 'अधिक दाखवा', collapse: 'कमी दाखवा' },
  optional: '(पर्यायी)',
  required: 'कृपया ${label} टाका',
  validateDefault: '${label} ची पडताळणी त्रुटी',
});

const paIN = fromEnglish('pa', {
  // dayjs names Punjabi `pa-in`.
  dayjs: 'pa-in',
  global: {
    placeholder: 'ਕਿਰਪਾ ਕਰਕੇ ਚੁਣੋ',
    close: 'ਬੰਦ ਕਰੋ',
    sortable: 'ਕ੍ਰਮਬੱਧ ਕੀਤਾ ਜਾ ਸਕਦਾ ਹੈ',
    show: 'ਦਿਖਾਓ',
    hide: 'ਲੁਕਾਓ',
  },
  Pagination: {
    items_per_page: '/ ਪੰਨਾ',
    jump_to: 'ਪੰਨੇ ’ਤੇ ਜਾਓ',
    jump_to_confirm: 'ਪੁਸ਼ਟੀ ਕਰੋ',
    page: 'ਪੰਨਾ',
    prev_page: 'ਪਿਛਲਾ ਪੰਨਾ',
    next_page: 'ਅਗਲਾ ਪੰਨਾ',
    prev_5: 'ਪਿਛਲੇ 5 ਪੰਨੇ',
    next_5: 'ਅਗਲੇ 5 ਪੰਨੇ',
    prev_3: 'ਪਿਛਲੇ 3 ਪੰਨੇ',
    next_3: 'ਅਗਲੇ 3 ਪੰਨੇ',
    page_size: 'ਪੰਨੇ ਦਾ ਆਕਾਰ',
  },
  datePicker: {
    placeholder: 'ਤਾਰੀਖ ਚੁਣੋ',
    yearPlaceholder: 'ਸਾਲ ਚੁਣੋ',
    quarterPlaceholder: 'ਤਿਮਾਹੀ ਚੁਣੋ',
    monthPlaceholder: 'ਮਹੀਨਾ ਚੁਣੋ',
    weekPlaceholder: 'ਹਫ਼ਤਾ ਚੁਣੋ',
    rangePlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਤਾਰੀਖ', 'ਅੰਤਿਮ ਤਾਰੀਖ'],
    rangeYearPlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਸਾਲ', 'ਅੰਤਿਮ ਸਾਲ'],
    rangeQuarterPlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਤਿਮਾਹੀ', 'ਅੰਤਿਮ ਤਿਮਾਹੀ'],
    rangeMonthPlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਮਹੀਨਾ', 'ਅੰਤਿਮ ਮਹੀਨਾ'],
    rangeWeekPlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਹਫ਼ਤਾ', 'ਅੰਤਿਮ ਹਫ਼ਤਾ'],
  },
  calendar: {
    today: 'ਅੱਜ',
    now: 'ਹੁਣ',
    backToToday: 'ਅੱਜ ’ਤੇ ਵਾਪਸ ਜਾਓ',
    ok: 'ਠੀਕ ਹੈ',
    clear: 'ਸਾਫ਼ ਕਰੋ',
    week: 'ਹਫ਼ਤਾ',
    month: 'ਮਹੀਨਾ',
    year: 'ਸਾਲ',
    timeSelect: 'ਸਮਾਂ ਚੁਣੋ',
    dateSelect: 'ਤਾਰੀਖ ਚੁਣੋ',
    weekSelect: 'ਹਫ਼ਤਾ ਚੁਣੋ',
    monthSelect: 'ਮਹੀਨਾ ਚੁਣੋ',
    yearSelect: 'ਸਾਲ ਚੁਣੋ',
    decadeSelect: 'ਦਹਾਕਾ ਚੁਣੋ',
    previousMonth: 'ਪਿਛਲਾ ਮਹੀਨਾ',
    nextMonth: 'ਅਗਲਾ ਮਹੀਨਾ',
    previousYear: 'ਪਿਛਲਾ ਸਾਲ',
    nextYear: 'ਅਗਲਾ ਸਾਲ',
    previousDecade: 'ਪਿਛਲਾ ਦਹਾਕਾ',
    nextDecade: 'ਅਗਲਾ ਦਹਾਕਾ',
    previousCentury: 'ਪਿਛਲੀ ਸਦੀ',
    nextCentury: 'ਅਗਲੀ ਸਦੀ',
  },
  timePicker: { placeholder: 'ਸਮਾਂ ਚੁਣੋ', rangePlaceholder: ['ਸ਼ੁਰੂਆਤੀ ਸਮਾਂ', 'ਅੰਤਿਮ ਸਮਾਂ'] },
  Table: {
    filterTitle: 'ਫਿਲਟਰ ਮੀਨੂ',
    filterConfirm: 'ਠੀਕ ਹੈ',
    filterReset: 'ਰੀਸੈੱਟ ਕਰੋ',
    filterEmptyText: 'ਕੋਈ ਫਿਲਟਰ ਨਹੀਂ',
    filterCheckAll: 'ਸਾਰੀਆਂ ਆਈਟਮਾਂ ਚੁਣੋ',
    filterSearchPlaceholder: 'ਫਿਲਟਰਾਂ ਵਿੱਚ ਖੋਜੋ',
    emptyText: 'ਕੋਈ ਡਾਟਾ ਨਹੀਂ',
    selectAll: 'ਇਹ ਪੰਨਾ ਚੁਣੋ',
    selectInvert: 'ਇਸ ਪੰਨੇ ਦੀ ਚੋਣ ਉਲਟਾਓ',
    selectNone: 'ਸਾਰੀ ਚੋਣ ਸਾਫ਼ ਕਰੋ',
    selectionAll: 'ਸਾਰਾ ਡਾਟਾ ਚੁਣੋ',
    sortTitle: 'ਕ੍ਰਮਬੱਧ ਕਰੋ',
    expand: 'ਕਤਾਰ ਖੋਲ੍ਹੋ',
    collapse: 'ਕਤਾਰ ਬੰਦ ਕਰੋ',
    triggerDesc: 'ਘਟਦੇ ਕ੍ਰਮ ਵਿੱਚ ਲਗਾਉਣ ਲਈ ਕਲਿੱਕ ਕਰੋ',
    triggerAsc: 'ਵਧਦੇ ਕ੍ਰਮ ਵਿੱਚ ਲਗਾਉਣ ਲਈ ਕਲਿੱਕ ਕਰੋ',
    cancelSort: 'ਕ੍ਰਮ ਰੱਦ ਕਰਨ ਲਈ ਕਲਿੱਕ ਕਰੋ',
  },
  ok: 'ਠੀਕ ਹੈ',
  cancel: 'ਰੱਦ ਕਰੋ',
  Upload: {
    uploading: 'ਅੱਪਲੋਡ ਹੋ ਰਿਹਾ ਹੈ...',
    removeFile: 'ਫ਼ਾਈਲ ਹਟਾਓ',
    uploadError: 'ਅੱਪਲੋਡ ਵਿੱਚ ਗਲਤੀ',
    previewFile: 'ਫ਼ਾਈਲ ਦੀ ਝਲਕ',
    downloadFile: 'ਫ਼ਾਈਲ ਡਾਊਨਲੋਡ ਕਰੋ',
  },
  empty: 'ਕੋਈ ਡਾਟਾ ਨਹੀਂ',
  Text: { edit: 'ਸੋਧੋ', copy: 'ਕਾਪੀ ਕਰੋ', copied: 'ਕਾਪੀ ਹੋ ਗਿਆ', expand: 'ਹੋਰ ਦਿਖਾਓ', collapse: 'ਘੱਟ ਦਿਖਾਓ' },
  optional: '(ਵਿਕਲਪਿਕ)',
  required: 'ਕਿਰਪਾ ਕਰਕੇ ${label} ਦਰਜ ਕਰੋ',
  validateDefault: '${label} ਦੀ ਜਾਂਚ ਵਿੱਚ ਗਲਤੀ',
});

/** antd's texts for each console locale. */
export const ANTD_LOCALES: Record<Locale, AntdLocale> = {
  en_US: enUS,
  gu_IN: guIN,
  hi_IN: hiIN,
  mr_IN: mrIN,
  pa_IN: paIN,
  zh_CN: zhCN,
};
