import { LOCALE_NAMES, LOCALES, type Locale } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../i18n';

/** The operator's language; server messages follow it through Accept-Language. */
export function LanguageSelect() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return (
    <Select
      aria-label={t('layout.language')}
      value={currentLocale()}
      className="field-xs"
      onChange={(value: Locale) => {
        void changeLocale(value).then(() => client.invalidateQueries());
      }}
      options={LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))}
    />
  );
}
