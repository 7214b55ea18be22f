import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi, loadApiOnFirstUse } from './api/setup';
import { applyLanguage } from './i18n';
import App from './App';
import { preloadFirstPage } from './app/router';
import { getState } from './store/session';
import './styles.css';

// Start-up: the API client's origin, the remembered interface language (only its texts are loaded: one small
// chunk, fetched while React starts) and a lazily loaded public page's module when the visit starts on one (with
// its texts, so after the language), then the first render.
configureApi(window.location.origin);
const root = createRoot(document.getElementById('root')!);
void applyLanguage(getState().utilities.language)
  // A page that failed to load is left to the router, which shows its error.
  .then(() => preloadFirstPage(window.location.pathname).catch(() => undefined))
  .finally(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
    // The API client's Amplify at the first key, press or focus (a signed-in visitor's first call loads it at once).
    loadApiOnFirstUse();
  });
