/** Business constants from the product spec §9. */
export const LANGUAGES = ['sv', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'sv';
export const LANGUAGE_LABELS: Record<Language, string> = { sv: 'Svenska', en: 'English' };

export const THEME_COLOR = '#FF9F7C';
/** Text on the theme colour (8.2:1 on #FF9F7C). */
export const ON_THEME_COLOR = '#1f1f1f';
/** The theme's hue as text on white (5.5:1): links, text buttons, the selected tab. */
export const THEME_TEXT_COLOR = '#a8461f';
export const HEADER_HEIGHT = 75;
export const MENU_WIDTH = 200;
export const MENU_COLLAPSED_WIDTH = 80;
export const MENU_MOBILE_WIDTH = 0;
export const GUTTER = 30;
export const CUSTOMER_MODAL_WIDTH = 800;
export const DROPDOWN_WIDTH = 300;
export const DROPDOWN_LIST_MAX_HEIGHT = 400;
export const AVATAR_SIZE = 48;
export const BREAKPOINTS = { mobile: 767, tablet: 991, desktop: 1000 } as const;

export const CURRENCY = 'SEK';
export const NUMBER_LOCALE = 'sv-SE';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DISPLAY_DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';

export const ENTITY_COUNT_POLL_MS = 600_000;
export const NOTIFICATION_POLL_MS = 90_000;
export const LIST_PAGE_SIZE = 10;
export const TWO_FACTOR_CODE_LENGTH = 6;

/** localStorage key of the persisted session (spec §3: store key root). */
export const STORAGE_KEY = 'root';
/** sessionStorage key of a pending two-factor sign-in (this tab only). */
export const TWO_FACTOR_STORAGE_KEY = 'two_factor';
/** localStorage key of the device tokens per e-mail address (store/deviceTokens). */
export const DEVICE_TOKENS_STORAGE_KEY = 'device_tokens';
