/**
 * MessageAlert (antd's Alert, with its icons and motion) loaded when first
 * needed: the public pages' budgets (src/budget.test.ts) have no room for it before their
 * form is usable. A page calls `loadMessageAlert()` as a request starts (the
 * first submit, a resend), so the Alert is in when the answer is; render it
 * inside `<Suspense fallback={null}>`. It brings antd's theme with it (app/AntdTheme.tsx): the public pages have none.
 */
import { lazy } from 'react';
import { themedModule } from '../app/themed';

export const loadMessageAlert = () => themedModule(() => import('./MessageAlert'));
const LazyMessageAlert = lazy(loadMessageAlert);
export default LazyMessageAlert;
