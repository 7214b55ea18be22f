/**
 * BankID's texts (its recommended messages, the panel's and the profile
 * card's) travel with the BankID components, not with the login page's or an
 * area's first load (src/budget.test.ts). Both languages, so a switch of
 * language finds them.
 */
import i18n from '../../i18n';
import sv from '../../locales/sv/bankid.json';
import en from '../../locales/en/bankid.json';

i18n.addResourceBundle('sv', 'bankid', sv, true, true);
i18n.addResourceBundle('en', 'bankid', en, true, true);
