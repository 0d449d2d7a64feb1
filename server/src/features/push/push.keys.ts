import type { Executor } from '../../db/client';
import type { Config } from '../../platform/config';
import { ConfigError } from '../../platform/config';
import { putSettingOnce } from '../../platform/settings.queries';
import { generateVapidKeys, type VapidKeys } from './push.sender';

/** Used when neither VAPID_SUBJECT nor an https PUBLIC_URL says how to reach the operator. */
export const FALLBACK_VAPID_SUBJECT = 'mailto:push@kamai.app';

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY, else a pair generated on first start and kept in settings
 * (shared by every instance, like the payout gateway secret). Browsers subscribe against the public
 * key, so it must not change by accident: a new pair strands every existing subscription.
 */
export async function vapidKeys(config: Config, db: Executor): Promise<VapidKeys> {
  const subject = config.VAPID_SUBJECT ?? subjectFromPublicUrl(config.PUBLIC_URL) ?? FALLBACK_VAPID_SUBJECT;
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = config;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  if (publicKey || privateKey) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
  }
  const stored = await putSettingOnce(db, 'vapid_keys', generateVapidKeys());
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
}

/** Apple refuses a token whose subject it cannot reach (localhost, .local): only a public https URL. */
function subjectFromPublicUrl(publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:' || url.hostname === 'localhost' || /\.(local|localhost|internal)$/.test(url.hostname)) {
    return undefined;
  }
  return url.origin;
}
