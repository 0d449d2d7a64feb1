import {
  type InboxItem,
  type Locale,
  type MessageKey,
  NOTIFICATION_TEXT,
  type NotificationKind,
  notificationVars,
} from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';

function isNotificationKind(type: string): type is NotificationKind {
  return type in NOTIFICATION_TEXT;
}

/**
 * The title and body to show. A notification's text comes from the catalogue by its kind, filled with
 * its params (amount in the reader's grouping, the reviewer's or gateway's reason), so it follows a
 * language change at once; a notice is shown as its operator wrote it.
 */
export type Translate = (key: MessageKey, vars: Record<string, string>) => string;

export function inboxText(item: InboxItem, translate: Translate, locale: Locale): { title: string; body: string } {
  const notification = item.notification;
  if (item.kind !== 'notification' || !notification || !isNotificationKind(notification.type)) {
    return { title: item.title, body: item.body };
  }
  const params = notificationVars(notification.params);
  for (const name of ['amount', 'fee', 'net'])
    if (params[name]) params[name] = formatMoney(params[name], locale, { symbol: false });
  const keys = NOTIFICATION_TEXT[notification.type];
  return { title: translate(keys.title, params), body: translate(keys.body, params) };
}
