import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sheets } from '../../scripts/antd-css';

/** antd runs in zero-runtime mode (app/theme.ts): the stylesheets must be what antd would generate now. */
describe("antd's stylesheets", () => {
  it.each(Object.entries(sheets()))(
    '%s matches the theme and antd installed (npm run antd-css -w admin)',
    (name, text) => {
      expect(readFileSync(new URL(name, import.meta.url), 'utf8') === text).toBe(true);
    },
  );

  it('carry the console theme: its primary colour, not antd’s blue', () => {
    const login = readFileSync(new URL('login.css', import.meta.url), 'utf8');
    expect(login).toContain('--ant-color-primary:#0b6b4e');
    expect(login).not.toContain('--ant-color-primary:#1677');
  });
});
