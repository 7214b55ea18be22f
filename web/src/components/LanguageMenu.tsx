import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { LANGUAGES, LANGUAGE_LABELS, type Language } from '../config/constants';
import { applyLanguage } from '../i18n';
import { setLanguage, useSession } from '../store/session';
// The switch's own button (components/LanguageSwitch.tsx draws it before this loads): nothing changes on screen.
import Button from './plain/PlainButton';
import Icon from './plain/PlainIcon';
import PlainMenuButton from './plain/PlainMenuButton';

/** Remember the choice in the session (`root`) and show the interface in it. */
function chooseLanguage(lang: Language): void {
  setLanguage(lang);
  applyLanguage(lang);
}

/**
 * The language switch's menu (plain: components/plain/PlainMenuButton.tsx, no antd), drawn by an area's header
 * and loaded by components/LanguageSwitch.tsx on the public pages once the switch is reached for. `open`: the
 * switch was clicked before this loaded; `focus`: it had the focus.
 */
export default function LanguageMenu({ type, open, focus }: { type: 'text' | 'default'; open: boolean; focus: boolean }) {
  const language = useSession((s) => s.utilities.language);
  return (
    <PlainMenuButton
      defaultOpen={open}
      placement="bottomLeft"
      items={LANGUAGES.map((lang) => ({
        key: lang,
        selected: lang === language,
        label: <span data-testid={`language-option-${lang}`}>{LANGUAGE_LABELS[lang]}</span>,
      }))}
      onClick={(key) => chooseLanguage(key as Language)}
    >
      {(trigger) => (
        <Button type={type} icon={<Icon icon={GlobalOutlined} />} data-testid="language-switch" data-language={language} autoFocus={focus} {...trigger}>
          {LANGUAGE_LABELS[language]}
        </Button>
      )}
    </PlainMenuButton>
  );
}
