// The lazily loaded half of lib/toast.ts: antd-mobile's Toast (with the React 19 render adapter it
// needs) and the warning icon.
import './antd-render';

export { default as Toast } from 'antd-mobile/es/components/toast';
export { ExclamationCircleOutline } from 'antd-mobile-icons';
