/**
 * MessageAlert (antd's Alert, with its icons and motion) loaded when first
 * needed: the public pages' budgets (src/budget.test.ts) have no room for it before their
 * form is usable. A page calls `loadMessageAlert()` as a request starts (the
 * first submit, a resend), so the Alert is in when the answer is; render it
 * inside `<Suspense fallback={null}>`. It brings antd's theme with it (components/AntdTheme.tsx): the public pages have none.
 */
import { lazy, type ComponentProps } from 'react';
import { themedModule } from './themed';
import type MessageAlert from './MessageAlert';

export const loadMessageAlert = () => themedModule(() => import('./MessageAlert'));
const Alert = lazy(loadMessageAlert);

/** The Alert once there is a message: with none, nothing is drawn and nothing loads (not even antd's theme). */
export default function LazyMessageAlert(props: ComponentProps<typeof MessageAlert>) {
  if (!props.messages?.length) return null;
  return <Alert {...props} />;
}
