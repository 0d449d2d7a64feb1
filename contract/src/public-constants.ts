/**
 * `@kamai/contract/constants`: every value of the contract that needs no zod (constants, locales and
 * their formatting, money formatting and parsing helpers, India's calendar day, the message catalogue
 * and its translations, the input formats). A browser page imports its values from here, and its
 * schemas from `@kamai/contract` only where it validates (the lazy forms), so the first page carries no
 * zod and no schema.
 */
export * from './business-day';
export * from './catalogue';
export * from './constants';
export * from './date-format';
export * from './formats';
export * from './ifsc';
export * from './intl';
export * from './locales';
export * from './messages';
export * from './money-format';
