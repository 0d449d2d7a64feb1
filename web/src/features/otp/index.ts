export { SendCodeButton, useSendCodeHint } from './components/send-code-button';
