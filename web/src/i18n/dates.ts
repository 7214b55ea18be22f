/**
 * dayjs in the interface language: what shows or picks dates imports dayjs
 * from here (never from 'dayjs' itself), so its locale follows the language
 * wherever it is used, and neither the login page nor an area's first page
 * loads it (their budgets). Swedish's locale data is here; English is dayjs's own.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/sv';
import i18n from '.';

const follow = (lang: string | undefined) => void dayjs.locale(lang?.startsWith('en') ? 'en' : 'sv');
follow(i18n.resolvedLanguage ?? i18n.language);
i18n.on('languageChanged', follow);

export default dayjs;
