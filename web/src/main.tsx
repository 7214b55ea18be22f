import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi, loadApiOnFirstUse } from './api/setup';
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
  // The API client's Amplify at the first key, press or focus (a signed-in visitor's first call loads it at once).
  loadApiOnFirstUse();
});
