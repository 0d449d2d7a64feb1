import { TOAST_MS } from '@kamai/contract';
import Toast from 'antd-mobile/es/components/toast';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { createElement } from 'react';

export function toastSuccess(content: string): void {
  Toast.show({ icon: 'success', content, duration: TOAST_MS });
}

export function toastError(content: string): void {
  Toast.show({ icon: 'fail', content, duration: TOAST_MS });
}

/** A form's first validation problem. */
export function toastWarning(content: string): void {
  Toast.show({ icon: createElement(ExclamationCircleOutline), content, duration: TOAST_MS });
}

export function toastText(content: string): void {
  Toast.show({ content, duration: TOAST_MS });
}
