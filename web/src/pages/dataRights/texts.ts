/**
 * The data-rights texts travel with their pages, not with every area's
 * first load (src/budget.test.ts): few users open them. Both languages, so a
 * switch of language finds them.
 */
import i18n from '../../i18n';
import sv from '../../locales/sv/dataRights.json';
import en from '../../locales/en/dataRights.json';

i18n.addResourceBundle('sv', 'dataRights', sv, true, true);
i18n.addResourceBundle('en', 'dataRights', en, true, true);
