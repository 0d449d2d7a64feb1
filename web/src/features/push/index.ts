export { disablePush } from './api/push-subscription';
export { PushSwitch } from './components/push-switch';
