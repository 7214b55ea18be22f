/**
 * The add-on screens' texts (namespace `addons`), registered when one of
 * their lazily loaded pages is: they stay out of the language bundle every
 * page loads (web/src/budget.test.ts).
 */
import i18n from '../../i18n';
import en from './locales/en.json';
import sv from './locales/sv.json';

i18n.addResourceBundle('en', 'addons', en, true, true);
i18n.addResourceBundle('sv', 'addons', sv, true, true);

export const ADDON_TEXTS = { en, sv };
