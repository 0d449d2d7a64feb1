import type { InboxItem } from '@kamai/contract';
import { translate } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { inboxText } from './inbox-text';

/** `inboxText` with the contract's catalogue in the current language (the same texts the server uses). */
export function useInboxText(item: InboxItem): { title: string; body: string } {
  useTranslation();
  const locale = currentLocale();
  return inboxText(item, (key, vars) => translate(locale, key, vars), locale);
}
