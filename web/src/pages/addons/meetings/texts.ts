/**
 * The video-meeting screens' texts (namespace `meetings`), registered when
 * one of their lazily loaded pages or the dashboard card is: they stay out
 * of the language bundle every page loads (web/src/budget.test.ts).
 */
import i18n from '../../../i18n';
import en from './locales/en.json';
import sv from './locales/sv.json';

i18n.addResourceBundle('en', 'meetings', en, true, true);
i18n.addResourceBundle('sv', 'meetings', sv, true, true);

export const MEETING_TEXTS = { en, sv };
