import type { Locale } from '@kamai/contract';
import { LOCALE_NAMES, LOCALES } from '@kamai/contract/constants';
import Popup from 'antd-mobile/es/components/popup';
import { CheckOutline } from 'antd-mobile-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../../i18n';
import { toastError } from '../../lib/toast';

interface LanguageSheetProps {
  visible: boolean;
  onClose: () => void;
}

/** The language picker: a bottom sheet listing the six interface languages, each in its own script. */
export default function LanguageSheet({ visible, onClose }: LanguageSheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const active = currentLocale();

  const choose = async (locale: Locale) => {
    onClose();
    if (locale === active) return;
    try {
      await changeLocale(locale);
    } catch {
      toastError(t('request.network'));
    }
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="language-sheet">
      <section role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="language-sheet-title semibold text-center">
          {t('language.title')}
        </h2>
        <ul className="plain-list divided">
          {LOCALES.map((locale) => (
            <li key={locale}>
              <button
                type="button"
                className="language-sheet-option row"
                lang={locale.replace('_', '-')}
                aria-current={locale === active ? 'true' : undefined}
                onClick={() => choose(locale)}
              >
                <span>{LOCALE_NAMES[locale]}</span>
                {locale === active && <CheckOutline aria-hidden />}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="language-sheet-cancel row" onClick={onClose}>
          {t('language.cancel')}
        </button>
      </section>
    </Popup>
  );
}
