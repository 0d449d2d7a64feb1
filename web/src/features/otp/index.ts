export { SendCodeButton } from './components/send-code-button';
