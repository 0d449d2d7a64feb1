import { randomBytes, randomInt } from 'node:crypto';
import {
  type LinkedStatus,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_TTL_SECONDS,
  QR_TTL_SECONDS,
} from '@kamai/contract';

/**
 * The messaging service, seen from our side (docs/design.md "Scope"). The project ships only the sandbox below;
 * a production provider must be an official API the account holder consents to, never an unofficial
 * client of a messaging network. Pairing completions and status changes come back from the provider
 * (in the sandbox: from an operator through the admin API) and are recorded by the service.
 */
export interface LinkProvider {
  /** A code the holder of `phone` types into the messaging app's "link with phone number". */
  requestPairingCode(phone: string): Promise<{ code: string; expiresAt: Date }>;
  /** A payload to show as a QR code; whichever number scans it is linked. `ref` names the pairing. */
  requestQr(): Promise<{ ref: string; payload: string; expiresAt: Date }>;
  /** The provider's view of a linked number's session, if it knows the number. */
  status(phone: string): Promise<LinkedStatus | undefined>;
  /** Ends the linked session of a number. */
  logout(phone: string): Promise<void>;
}

export interface SandboxOptions {
  now: () => Date;
  /**
   * The sandbox keeps no device state of its own (several server instances share one database):
   * a number's session is whatever status operators last set, read through this.
   */
  statusOf: (phone: string) => Promise<LinkedStatus | undefined>;
}

function pairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** Simulates the messaging service: real-looking codes and QR payloads with expiry, no network. */
export function sandboxLinkProvider({ now, statusOf }: SandboxOptions): LinkProvider {
  return {
    async requestPairingCode() {
      return { code: pairingCode(), expiresAt: new Date(now().getTime() + PAIRING_CODE_TTL_SECONDS * 1000) };
    },
    async requestQr() {
      const ref = randomBytes(18).toString('base64url');
      const expiresAt = new Date(now().getTime() + QR_TTL_SECONDS * 1000);
      return { ref, payload: `kamai-sandbox-link:${ref}:${Math.floor(expiresAt.getTime() / 1000)}`, expiresAt };
    },
    status: statusOf,
    async logout() {
      // Nothing to end remotely: the service records the number as logged out.
    },
  };
}
