import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useEffect, useReducer, useRef, useState, type ComponentType } from 'react';
import { LANGUAGE_LABELS } from '../config/constants';
import { useSession } from '../store/session';
import Button from './plain/PlainButton';
import Icon from './plain/PlainIcon';

type Menu = ComponentType<{ type: 'text' | 'default'; open: boolean; focus: boolean }>;

// The menu (LanguageMenu.tsx, plain: components/plain/PlainMenuButton.tsx) is code a page needs only once the switch
// is used, so it is not on the public pages' budgets (src/budget.test.ts): the switch shows the same button at once
// and loads its menu when the button is pointed at, focused or pressed (not when the browser is idle: on a slow phone that was
// the bandwidth and the main thread of the page just shown); a click before it is in opens it when it is.
// The button is never swapped while it is pressed: a press that began on this button and ended on the menu's
// would be no click at all (the browser fires none when the pressed element left the page), so the person's
// click was lost on a slow machine.
let loaded: Menu | null = null;
let loading: Promise<Menu> | null = null;
// Its button is this one's (plain).
const loadMenu = () => (loading ??= import('./LanguageMenu').then((m) => (loaded = m.default)));

/** Language switcher: Svenska / English (spec §2). The choice is remembered in `root`. */
export default function LanguageSwitch({ type = 'text' }: { type?: 'text' | 'default' }) {
  const language = useSession((s) => s.utilities.language);
  const [Menu, setMenu] = useState<Menu | null>(() => loaded);
  const [open, setOpen] = useState(false);
  const focused = useRef(false);
  const mounted = useRef(true);
  const pressed = useRef(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const load = () => void loadMenu().then((m) => mounted.current && setMenu(() => m));
  // The press ended elsewhere (the mouse dragged off, a touch became a scroll): the menu may come in now.
  // (A tap's pointerleave comes before its click, so only the mouse's counts.)
  const release = () => {
    if (!pressed.current) return;
    pressed.current = false;
    rerender();
  };
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  if (Menu && !pressed.current) return <Menu type={type} open={open} focus={focused.current} />;
  return (
    <Button
      type={type}
      icon={<Icon icon={GlobalOutlined} />}
      data-testid="language-switch"
      data-language={language}
      onPointerEnter={load}
      onPointerDown={() => {
        pressed.current = true;
        load();
      }}
      onPointerLeave={(e) => e.pointerType === 'mouse' && release()}
      onPointerCancel={release}
      onFocus={() => {
        focused.current = true;
        load();
      }}
      onBlur={() => (focused.current = false)}
      onClick={() => {
        pressed.current = false;
        setOpen(true);
        load();
      }}
    >
      {LANGUAGE_LABELS[language]}
    </Button>
  );
}
