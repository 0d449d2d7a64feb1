import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import enUS from 'antd-mobile/es/locales/en-US';
import i18n from 'i18next';

/**
 * antd-mobile's own texts in the reader's language. Its default locale is Chinese whatever the page's
 * language, which screen readers announced on every dialog's mask ("遮罩层"); the texts our screens
 * can reach (the mask's close button, confirm/cancel/loading/close) come from our catalogue, the rest
 * stays English. Set as the default configuration, so Toast and Dialog rendered outside the app's tree
 * get it too; a component reads it when it renders.
 */
export function applyAntdLocale(): void {
  const t = i18n.getFixedT(null, 'common');
  setDefaultConfig({
    locale: {
      ...enUS,
      locale: i18n.language.replace('_', '-'),
      common: {
        ...enUS.common,
        confirm: t('dialog.confirm'),
        cancel: t('dialog.cancel'),
        loading: t('dialog.loading'),
        close: t('formStep.close'),
      },
      Mask: { name: t('antd.maskClose') },
    },
  });
}
