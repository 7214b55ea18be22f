import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { LANGUAGES, LANGUAGE_LABELS, type Language } from '../config/constants';
import { applyLanguage } from '../i18n';
import { setLanguage, useSession } from '../store/session';

/** Remember the choice in the session (`root`) and show the interface in it. */
function chooseLanguage(lang: Language): void {
  setLanguage(lang);
  applyLanguage(lang);
}

/** Language switcher: Svenska / English (spec §2). The choice is remembered in `root`. */
export default function LanguageSwitch({ type = 'text' }: { type?: 'text' | 'default' }) {
  const language = useSession((s) => s.utilities.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((lang) => ({
          key: lang,
          label: <span data-testid={`language-option-${lang}`}>{LANGUAGE_LABELS[lang]}</span>,
        })),
        onClick: ({ key }) => chooseLanguage(key as Language),
      }}
    >
      <Button type={type} icon={<GlobalOutlined />} data-testid="language-switch" data-language={language}>
        {LANGUAGE_LABELS[language]}
      </Button>
    </Dropdown>
  );
}
