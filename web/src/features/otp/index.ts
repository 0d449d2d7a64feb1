export { useOtpChannels } from './api/get-otp-channels';
export { CodeField } from './components/code-field';
export { SendCodeButton, useSendCodeHint } from './components/send-code-button';
