import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

// antd-mobile renders Toast and Dialog.confirm through ReactDOM.render, which React 19 removed;
// without this adapter they render nothing (antd-mobile "v5 for React 19" guide). It is set by the
// modules that show them (lib/toast-show.ts, lib/dialog-show.ts), not at start: antd-mobile's render
// helper brings rc-util and Babel's async runtime (~5 KB gzip) that the first page does not need.
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
