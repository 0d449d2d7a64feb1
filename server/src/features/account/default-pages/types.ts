import type { PageSlug, PageText } from '@kamai/contract';

/** A fresh install's Help, Terms and Privacy in one language (an operator replaces them in the console). */
export type DefaultPages = Record<PageSlug, PageText>;
