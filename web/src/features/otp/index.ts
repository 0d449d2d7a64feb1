export { useOtpChannels } from './api/get-otp-channels';
export { SendCodeButton, useSendCodeHint } from './components/send-code-button';
