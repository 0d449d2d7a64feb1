import { readdirSync, readFileSync } from 'node:fs';
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

  it('cover every antd component the console imports (add one to scripts/antd-css.tsx, then regenerate)', () => {
    const names = (text: string) =>
      [...text.matchAll(/import \{([^}]*)\} from 'antd';/g)].flatMap((m) =>
        (m[1] ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name && !name.startsWith('type '))
          .map((name) => name.split(' as ')[0]?.trim() ?? ''),
      );
    const src = new URL('../', import.meta.url);
    const used = new Set(
      (readdirSync(src, { recursive: true }) as string[])
        .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
        .flatMap((file) => names(readFileSync(new URL(file, src), 'utf8'))),
    );
    // Neither draws anything styled: the theme's provider and the breakpoints' hook.
    for (const name of ['ConfigProvider', 'Grid']) used.delete(name);
    const drawn = new Set(names(readFileSync(new URL('../../scripts/antd-css.tsx', import.meta.url), 'utf8')));
    expect([...used].filter((name) => !drawn.has(name))).toEqual([]);
  });
});
