import 'antd-mobile/es/global';
import './app/styles.css';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './app/service-worker';
import { initI18n } from './i18n';

// antd-mobile renders Toast and other imperative pop-ups through ReactDOM.render, which React 19
// removed; without this adapter they render nothing (antd-mobile "v5 for React 19" guide).
unstableSetRender((node, container) => {
  const host = container as (Element | DocumentFragment) & { kamaiRoot?: Root };
  host.kamaiRoot ??= createRoot(host);
  const root = host.kamaiRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    host.kamaiRoot = undefined;
  };
});

registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The stored language is loaded before the first paint, so the page never flashes in English.
initI18n().finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
