import { TOAST_MS } from '@kamai/contract/constants';
import type { ToastShowProps } from 'antd-mobile/es/components/toast';
import { createElement } from 'react';

/**
 * antd-mobile's Toast (with its mask and animation library, ~25 KB gzip) is fetched on the first
 * toast, not with the first page: a toast always follows an action, so the page never waits for it.
 * Toasts shown while it loads keep their order.
 */
let toast: Promise<typeof import('./toast-show')> | undefined;

function show(props: ToastShowProps | ((icons: typeof import('./toast-show')) => ToastShowProps)): void {
  toast ??= import('./toast-show');
  void toast.then((module) =>
    module.Toast.show({ ...(typeof props === 'function' ? props(module) : props), duration: TOAST_MS }),
  );
}

export function toastSuccess(content: string): void {
  show({ icon: 'success', content });
}

export function toastError(content: string): void {
  show({ icon: 'fail', content });
}

/** A form's first validation problem. */
export function toastWarning(content: string): void {
  show(({ ExclamationCircleOutline }) => ({ icon: createElement(ExclamationCircleOutline), content }));
}
