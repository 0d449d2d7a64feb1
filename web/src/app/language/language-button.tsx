import { LOCALE_NAMES } from '@kamai/contract/constants';
import { GlobalOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';

const LanguageSheet = lazy(() => import('./language-sheet'));

/** Top-right button of the tab pages; the sheet's code loads on first use. */
export function LanguageButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <button
        type="button"
        className="language-button text-14"
        // The name holds the visible language (WCAG 2.5.3, label in name).
        aria-label={`${t('language.button')}: ${LOCALE_NAMES[currentLocale()]}`}
        aria-haspopup="dialog"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <GlobalOutline aria-hidden />
        <span aria-hidden>{LOCALE_NAMES[currentLocale()]}</span>
      </button>
      {used && (
        <Suspense fallback={null}>
          <LanguageSheet visible={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
