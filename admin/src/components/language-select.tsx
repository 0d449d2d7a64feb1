import { LOCALE_NAMES, LOCALES, type Locale } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../i18n';

/**
 * The operator's language; server messages follow it through Accept-Language. A native <select> drawn
 * as antd's Select (styles.css, `.language-select`): antd's Select is ~22 KB gzip of the login page's
 * JavaScript, and a phone's own picker suits six names.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return (
    <select
      aria-label={t('layout.language')}
      value={currentLocale()}
      className="language-select field-xs"
      onChange={(event) => {
        void changeLocale(event.target.value as Locale).then(() => client.invalidateQueries());
      }}
    >
      {LOCALES.map((locale) => (
        <option key={locale} value={locale} lang={locale.replace('_', '-')}>
          {LOCALE_NAMES[locale]}
        </option>
      ))}
    </select>
  );
}
