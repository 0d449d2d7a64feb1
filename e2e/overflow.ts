import type { Page } from '@playwright/test';

/** One text that does not fit its box: where, what, and by how much. */
export interface Overflow {
  kind: 'input' | 'title';
  where: string;
  text: string;
  needed: number;
  room: number;
}

/** Boxes whose text must fit or end in an ellipsis: headings, titles of lists and cards, labels, buttons. */
export const TITLE_SELECTOR = [
  'h1',
  'h2',
  'h3',
  '[class*="-title"]',
  '.adm-list-item-content-main',
  '.adm-form-item-label',
  '.text-field-note',
  'label',
  'button',
].join(',');

/**
 * Every visible input whose placeholder (or typed value) is wider than the room inside it, and every
 * title whose text is wider than its box without an ellipsis in effect. Inputs are measured with a
 * canvas in the input's own computed font, because an input's scrollWidth ignores its placeholder.
 */
export function findOverflows(page: Page): Promise<Overflow[]> {
  return page.evaluate((titleSelector) => {
    const found: Overflow[] = [];
    const context = document.createElement('canvas').getContext('2d');
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const where = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    for (const input of document.querySelectorAll<HTMLInputElement>('input, textarea')) {
      if (!context || !visible(input) || input.tagName === 'TEXTAREA') continue;
      if (['checkbox', 'radio', 'hidden', 'file', 'range'].includes(input.type)) continue;
      const text = input.value && input.type !== 'password' ? input.value : input.placeholder;
      if (!text) continue;
      const style = getComputedStyle(input);
      context.font = style.font;
      const needed = context.measureText(text).width;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      if (needed > room + 1) found.push({ kind: 'input', where: where(input), text, needed, room });
    }
    for (const el of document.querySelectorAll<HTMLElement>(titleSelector)) {
      if (!visible(el) || el.clientWidth === 0) continue;
      if (el.closest('.adm-tabs-header')) continue; // tabs scroll sideways by design
      if (el.scrollWidth <= el.clientWidth + 1) continue;
      const style = getComputedStyle(el);
      const clipped = style.overflowX === 'hidden' || style.overflow === 'hidden';
      // text-overflow draws an ellipsis only in a block container: a flex or grid box clips its text
      // silently (the notice title's old bug). A multi-line clamp ellipsises too.
      const block = !/flex|grid/.test(style.display);
      const ellipsis =
        clipped && ((style.textOverflow === 'ellipsis' && block) || (style.webkitLineClamp ?? 'none') !== 'none');
      if (ellipsis) continue;
      found.push({
        kind: 'title',
        where: where(el),
        text: (el.textContent ?? '').trim().slice(0, 80),
        needed: el.scrollWidth,
        room: el.clientWidth,
      });
    }
    return found;
  }, TITLE_SELECTOR);
}
