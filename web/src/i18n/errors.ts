import { LOCALES, MESSAGES } from '@kamai/contract/constants';
import { i18n } from '.';

// The contract's catalogue texts, keyed by catalogue key, become the `errors` namespace of every locale.
// Only forms show them (field problems), so this module is imported by the form code, not the first page.
for (const locale of LOCALES) i18n.addResourceBundle(locale, 'errors', MESSAGES[locale], true, true);
