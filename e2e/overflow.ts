import type { Page } from '@playwright/test';

/** One text that does not fit its box: where, what, and by how much. */
export interface Overflow {
  kind: 'input' | 'title' | 'cut' | 'row';
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
 * Every visible input whose placeholder (or typed value) is wider than the room inside it, every
 * title whose text is wider than its box without an ellipsis in effect, and every input or title whose
 * box is cut off at a side by a clipping ancestor or the screen (a box that fits its text but not its
 * row: the Add tab's Copy button at 320 px). Inputs are measured with a
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
    const screenWidth = document.documentElement.clientWidth;
    /** The box that cuts `el` off at a side: a clipping ancestor, or the screen; none inside a scroller. */
    const cutBy = (el: Element): Element | undefined => {
      const box = el.getBoundingClientRect();
      const outside = (left: number, right: number) => box.left < left - 1 || box.right > right + 1;
      for (let up = el.parentElement; up; up = up.parentElement) {
        const overflowX = getComputedStyle(up).overflowX;
        if (/auto|scroll/.test(overflowX)) return undefined;
        if (/hidden|clip/.test(overflowX)) {
          const room = up.getBoundingClientRect();
          if (outside(room.left, room.right)) return up;
        }
      }
      return outside(0, screenWidth) ? document.documentElement : undefined;
    };
    for (const el of document.querySelectorAll<HTMLElement>(`${titleSelector},input`)) {
      if (!visible(el)) continue;
      const cut = cutBy(el);
      if (!cut) continue;
      const text = (el instanceof HTMLInputElement ? el.placeholder : (el.textContent ?? '')).trim().slice(0, 80);
      const room = cut.getBoundingClientRect().width;
      found.push({
        kind: 'cut',
        where: `${where(el)} in ${where(cut)}`,
        text,
        needed: el.getBoundingClientRect().width,
        room,
      });
    }
    // A row of boxes (flex or grid) whose children stick out past its side, visibly: Copy beside the code.
    // Only the innermost such row is reported (its overflow makes its ancestors' scrollWidth grow too).
    const rows = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
      if (!visible(el) || el.clientWidth === 0 || el.scrollWidth <= el.clientWidth + 1) return false;
      const style = getComputedStyle(el);
      return /flex|grid/.test(style.display) && style.overflowX === 'visible' && !el.closest('.adm-tabs-header');
    });
    for (const el of rows.filter((row) => !rows.some((other) => other !== row && row.contains(other)))) {
      found.push({
        kind: 'row',
        where: where(el),
        text: (el.textContent ?? '').trim().slice(0, 80),
        needed: el.scrollWidth,
        room: el.clientWidth,
      });
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
