import { cleanup, render } from '@testing-library/react';
import { ConfigProvider, DatePicker } from 'antd';
import dayjs from 'dayjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { antdLocale, loadAntdLocale } from './antd-locales';

afterEach(cleanup);

/**
 * antd ships no Gujarati, Marathi or Punjabi: the console's own locale objects give its date pickers
 * translated placeholders, buttons and dayjs's month names.
 */
describe.each([
  { locale: 'gu_IN', start: 'શરૂઆતની તારીખ', end: 'અંતિમ તારીખ', one: 'તારીખ પસંદ કરો', today: 'આજે', january: 'જાન્યુ.' },
  { locale: 'mr_IN', start: 'सुरुवातीची तारीख', end: 'शेवटची तारीख', one: 'तारीख निवडा', today: 'आज', january: 'जाने.' },
  { locale: 'pa_IN', start: 'ਸ਼ੁਰੂਆਤੀ ਤਾਰੀਖ', end: 'ਅੰਤਿਮ ਤਾਰੀਖ', one: 'ਤਾਰੀਖ ਚੁਣੋ', today: 'ਅੱਜ', january: 'ਜਨਵਰੀ' },
] as const)('$locale', ({ locale, start, end, one, today, january }) => {
  beforeAll(async () => {
    await loadAntdLocale(locale);
  });

  it('puts translated placeholders on the range and date pickers', () => {
    render(
      <ConfigProvider locale={antdLocale(locale)}>
        <DatePicker.RangePicker />
        <DatePicker />
      </ConfigProvider>,
    );
    const placeholders = [...document.querySelectorAll('input')].map((input) => input.placeholder);
    expect(placeholders).toEqual([start, end, one]);
  });

  it('names the months and the today button in the language when the picker opens', () => {
    render(
      <ConfigProvider locale={antdLocale(locale)}>
        <DatePicker open defaultPickerValue={dayjs('2026-01-15')} />
      </ConfigProvider>,
    );
    const panel = document.querySelector('.ant-picker-dropdown')?.textContent ?? '';
    expect(panel).toContain(january);
    expect(panel).toContain(today);
    expect(panel).not.toContain('Jan');
  });
});
