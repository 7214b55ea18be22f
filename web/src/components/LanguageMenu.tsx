// Without Dropdown.Button (and its Space).
import Dropdown from 'antd/es/dropdown/dropdown';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useState } from 'react';
import { LANGUAGES, LANGUAGE_LABELS, type Language } from '../config/constants';
import { applyLanguage } from '../i18n';
import { setLanguage, useSession } from '../store/session';
// The switch's own button (components/LanguageSwitch.tsx draws it before this loads): nothing changes on screen.
import Button from './plain/PlainButton';
import Icon from './plain/PlainIcon';

/** Remember the choice in the session (`root`) and show the interface in it. */
function chooseLanguage(lang: Language): void {
  setLanguage(lang);
  applyLanguage(lang);
}

/**
 * The language switch's menu (antd Dropdown: rc-menu, rc-trigger), loaded by
 * components/LanguageSwitch.tsx after the page is usable. `open`: the switch
 * was clicked before this loaded; `focus`: it had the focus.
 */
export default function LanguageMenu({ type, open: openAtStart, focus }: { type: 'text' | 'default'; open: boolean; focus: boolean }) {
  const language = useSession((s) => s.utilities.language);
  const [open, setOpen] = useState(openAtStart);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((lang) => ({
          key: lang,
          label: <span data-testid={`language-option-${lang}`}>{LANGUAGE_LABELS[lang]}</span>,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          chooseLanguage(key as Language);
        },
      }}
    >
      <Button type={type} icon={<Icon icon={GlobalOutlined} />} data-testid="language-switch" data-language={language} autoFocus={focus}>
        {LANGUAGE_LABELS[language]}
      </Button>
    </Dropdown>
  );
}
