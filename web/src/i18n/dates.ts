/**
 * dayjs in the interface language: loaded by what shows dates (the role
 * areas, the terms pages), not with the login page, where dayjs would only
 * add to the first page's budget (issue 20). Swedish's locale data is here;
 * English is dayjs's own.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/sv';
import i18n from '.';

const follow = (lang: string | undefined) => void dayjs.locale(lang?.startsWith('en') ? 'en' : 'sv');
follow(i18n.resolvedLanguage ?? i18n.language);
i18n.on('languageChanged', follow);
