import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi, loadApi } from './api/client';
import { applyLanguage } from './i18n';
import App from './App';
import { getState } from './store/session';
import './styles.css';

// Start-up: the API client's origin and the remembered interface language (only its texts are
// loaded: one small chunk, fetched while React starts), then the first render.
configureApi(window.location.origin);
const root = createRoot(document.getElementById('root')!);
void applyLanguage(getState().utilities.language).finally(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // The API client's Amplify once the first page is up (its first call would load it otherwise).
  const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
  idle(() => void loadApi());
});
