import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './api/client';
import { applyLanguage } from './i18n';
import App from './App';
import { getState } from './store/session';
import './styles.css';

// Start-up: the API client's origin and the remembered interface language.
configureApi(window.location.origin);
applyLanguage(getState().utilities.language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
