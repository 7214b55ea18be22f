import { useTranslation } from 'react-i18next';

/**
 * A spinner and "Loading…" while a page's data or a signed-in session loads.
 * Drawn with CSS alone (styles.css `.spinner`: antd's large Spin's four
 * pulsing dots): the route guards show it from the entry chunk, where antd's
 * Spin would put its component and style code on the login page's budget
 * (src/budget.test.ts).
 */
export default function Loading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={fullscreen ? 'loading loading-fullscreen' : 'loading'} data-testid="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden>
        <i />
        <i />
        <i />
        <i />
      </span>
      <span className="spinner-text">{t('loading')}</span>
    </div>
  );
}
