import type { Messages } from '@kamai/contract';
import common from './locales/en_US/common.json';
import tasks from './locales/en_US/tasks.json';
import users from './locales/en_US/users.json';
import type { enLater } from './resources-later';

/**
 * The English namespaces Home's first screen uses (layouts, balance card, task cards) ship in the first
 * bundle; the rest load as one chunk before any other page or form renders (resources-later.ts).
 */
export const en = { common, tasks, users };

/** Every English namespace: the shape every other locale must match. */
export type English = typeof en & typeof enLater;

/** All namespaces, including the contract's catalogue (`errors`), which loads with the forms (see errors.ts). */
export type Resources = English & { errors: Messages };
