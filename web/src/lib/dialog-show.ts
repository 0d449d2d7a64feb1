// The lazily loaded half of lib/dialog.ts: antd-mobile's Dialog with the React 19 render adapter it needs.
import './antd-render';

export { default } from 'antd-mobile/es/components/dialog';
