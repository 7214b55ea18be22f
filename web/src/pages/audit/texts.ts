/**
 * The audit pages' texts travel with the pages, not with every area's first
 * load (src/budget.test.ts): only the admin and customers who open the trail
 * need them. Both languages, so a switch of language finds them.
 */
import i18n from '../../i18n';
import sv from '../../locales/sv/audit.json';
import en from '../../locales/en/audit.json';

i18n.addResourceBundle('sv', 'audit', sv, true, true);
i18n.addResourceBundle('en', 'audit', en, true, true);
