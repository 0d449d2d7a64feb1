import type { LinkedStatus } from '@kamai/contract';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Online seconds as hours, to `digits` places. */
export function hours(seconds: number, digits = 1): string {
  return (seconds / 3600).toFixed(digits);
}

/** A number's status in the server's words, and "pairing" while a pairing waits. */
export function LinkedStatusTag({
  row,
}: {
  row: { status: LinkedStatus; statusLabel: string; pairingPending?: boolean };
}) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <Tag color={row.status === 'online' ? 'green' : 'default'}>{row.statusLabel}</Tag>
      {row.pairingPending && <Tag color="gold">{t('linked.pairing')}</Tag>}
    </Space>
  );
}
