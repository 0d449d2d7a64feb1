import type { ThemeConfig } from 'antd';

/**
 * The console's design tokens, chosen for WCAG 2.2 AA: every text colour has at least 4.5:1 against
 * the surfaces it is drawn on (white, the grey page, a selected row's tint), and buttons' white labels
 * against their fill. antd's defaults (secondary text at 45 % black, error red #ff4d4f, the preset tags'
 * 7th shade) fall between 2.6:1 and 3.6:1. A preset tag's text is its palette's 7th shade, a CSS
 * variable antd declares on each component (`--ant-green-7`) and no theme token reaches: styles.css
 * sets those variables on tags, once.
 *
 * antd runs in its zero-runtime mode: its styles for this theme are stylesheets written at build time
 * (scripts/antd-css.tsx, src/antd/*.css), not generated in the browser at each first render
 * (docs/decisions/console-zero-runtime-styles.md). antd still sets the theme's CSS variables
 * (`--ant-color-primary`…) on `.css-var-console`, the fixed key the stylesheets use too.
 */
/** The class that carries the theme's CSS variables; every antd component's root has it (light-card.tsx too). */
export const CSS_VAR_KEY = 'css-var-console';

export const CONSOLE_THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0b6b4e',
    colorInfo: '#0b6b4e',
    colorSuccess: '#237804',
    colorWarning: '#ad6800',
    colorError: '#c41d2a',
    colorLink: '#0b6b4e',
    colorTextSecondary: 'rgba(0, 0, 0, 0.66)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.66)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    colorTextQuaternary: 'rgba(0, 0, 0, 0.6)',
    borderRadius: 6,
  },
  components: {
    Menu: { itemSelectedColor: '#064331', itemSelectedBg: '#e3f1ec' },
  },
  zeroRuntime: true,
  hashed: false,
  cssVar: { key: CSS_VAR_KEY },
};
