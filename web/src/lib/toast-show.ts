// The lazily loaded half of lib/toast.ts: antd-mobile's Toast and the warning icon.

export { default as Toast } from 'antd-mobile/es/components/toast';
export { ExclamationCircleOutline } from 'antd-mobile-icons';
