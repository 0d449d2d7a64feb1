import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { durationParts } from '../format';

/** Formats online time as "2 h 05 min", "12 min" or "40 s" in the reader's language and digits. */
export function useFormatDuration(): (seconds: number) => string {
  const { t } = useTranslation('linked');
  const locale = currentLocale();
  return (seconds) => {
    const { unit, values } = durationParts(seconds, locale);
    return t(`duration.${unit}`, values);
  };
}
