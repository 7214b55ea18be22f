/**
 * antd's theme of the app: the app's ConfigProvider (App.tsx) and the one
 * around the error notifications (layout/notifier.tsx, rendered outside the
 * React tree) use the same.
 */
import type { ThemeConfig } from 'antd';
import { HEADER_HEIGHT, ON_THEME_COLOR, THEME_COLOR, THEME_TEXT_COLOR } from './constants';

/**
 * Whoever asked their system for less motion (WCAG 2.3.3) gets none of
 * antd's: menus, dropdowns and dialogs open at once. Read once at start.
 */
export const REDUCED_MOTION = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export const THEME: ThemeConfig = {
  // Contrast (WCAG 2.1 AA, checked by axe-core in e2e/a11y.e2e.mjs): the theme colour stays the
  // surface of primary buttons, selected items and focus, with dark text on it (white on #FF9F7C is
  // 2:1; the dark menu uses a deeper shade); links and secondary texts are dark enough to read (≥ 4.5:1 on white and on the page grey).
  token: {
    colorPrimary: THEME_COLOR,
    colorLink: THEME_TEXT_COLOR,
    colorLinkHover: '#c0552a',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    // Error texts and danger buttons: 5.9:1 on white (antd's #ff4d4f is 3.3:1).
    colorError: '#cf1322',
    borderRadius: 6,
    motion: !REDUCED_MOTION,
  },
  components: {
    Layout: { headerHeight: HEADER_HEIGHT, headerBg: '#ffffff', headerPadding: '0 16px', bodyBg: '#f5f6f8' },
    Button: { primaryColor: ON_THEME_COLOR, dangerColor: '#ffffff' },
    Radio: { buttonSolidCheckedColor: ON_THEME_COLOR },
    // The selected entry of the dark menu: white on a deeper shade of the theme colour (5.4:1).
    Menu: { darkItemSelectedBg: '#b14a20', darkItemSelectedColor: '#ffffff' },
    // A table's empty text is content (a list's: styles.css), not a disabled control.
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.56)' },
    Tabs: { itemSelectedColor: THEME_TEXT_COLOR, itemHoverColor: '#c0552a', itemActiveColor: THEME_TEXT_COLOR, inkBarColor: THEME_COLOR },
  },
};
