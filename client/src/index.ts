export {
  type ApiClient,
  type ApiClientConfig,
  type ApiSuccess,
  type CallOptions,
  type ClientErrorKey,
  createApiClient,
  urlOf,
} from './api-client';
export { ApiError } from './api-error';
export { deviceId } from './device-id';
export { createTokenStore, type TokenStore } from './token-store';
