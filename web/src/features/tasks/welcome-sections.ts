import type { TaskSection } from '@kamai/contract';

/**
 * The contract's TASK_SECTIONS in the same order, repeated here because importing a value from the
 * contract's tasks module brings zod (~26 kB gzip) into the first page; a unit test keeps the two equal.
 */
export const WELCOME_SECTIONS: readonly TaskSection[] = ['hot', 'latest', 'newbie', 'limited', 'friends'];
