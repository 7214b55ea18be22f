/**
 * MessageAlert (antd's Alert, with its icons and motion) loaded when first
 * needed: the public pages' budgets (src/budget.test.ts) have no room for it before their
 * form is usable. A page calls `loadMessageAlert()` as a request starts (the
 * first submit, a resend), so the Alert is in when the answer is; render it
 * inside `<Suspense fallback={null}>`.
 */
import { lazy } from 'react';

export const loadMessageAlert = () => import('./MessageAlert');
const LazyMessageAlert = lazy(loadMessageAlert);
export default LazyMessageAlert;
