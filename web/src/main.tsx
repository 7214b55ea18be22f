import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './api/client';
import './i18n';
import App from './App';
import { getState } from './store/session';
import './styles.css';

configureApi(window.location.origin);
document.documentElement.lang = getState().utilities.language;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
