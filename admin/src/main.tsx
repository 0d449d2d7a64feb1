import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './i18n';
// antd's styles for the login page, before the console's own (app/theme.ts: antd's zero-runtime mode).
import './antd/login.css';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

await initI18n();
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
