import { lazy, Suspense } from 'react';
import { fetchPendingTexts } from '../api/content';
import { useList } from '../api/useList';
import type { LegalText } from '../types/content';
import { themedModule } from './themed';

// The question draws antd's Modal: it loads, with antd's theme, only when something is pending (a customer's
// dashboard draws no antd, and this check runs on every customer's first page: src/budget.test.ts).
const LegalAcceptanceDialog = lazy(() => themedModule(() => import('./LegalAcceptanceDialog')));

/**
 * After sign-in, a customer whose terms or privacy policy has a newer
 * version than the one they accepted is asked to accept it, once (or log
 * out). Nothing shows when nothing is pending.
 */
export default function LegalAcceptance() {
  const { rows: pending, set: setPending } = useList<LegalText>(fetchPendingTexts);
  const current = pending?.[0];
  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <LegalAcceptanceDialog key={`${current.kind}-${current.version}`} current={current} onAccepted={() => setPending((p) => p?.slice(1) ?? null)} />
    </Suspense>
  );
}
