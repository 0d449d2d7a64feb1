import 'antd-mobile/es/global';
import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { routeOf } from './app/routes';
import { registerServiceWorker } from './app/service-worker';
import { startI18n } from './i18n';

registerServiceWorker();

// The first page's chunks start loading now, beside the i18n start (see routes.ts, lazyPage).
routeOf(window.location.pathname)?.preload();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The stored language is loaded before the first paint, so the page never flashes in English.
startI18n().finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
