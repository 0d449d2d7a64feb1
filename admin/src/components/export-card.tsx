import { DownloadOutlined } from '@ant-design/icons';
import type { RouteName } from '@kamai/contract';
import { App, Button, Card, DatePicker, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../lib/api';
import { downloadFile } from '../lib/download';
import { useCan } from '../lib/roles';

type CsvRoute = Extract<RouteName, 'adminExportUsers' | 'adminExportMovements' | 'adminExportWithdrawals'>;

/** A date range and one download button per CSV export (shown only to roles the export admits). */
export function ExportCard({ exports }: { exports: { route: CsvRoute; file: string; label: string }[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const [busy, setBusy] = useState<CsvRoute>();
  const shown = exports.filter((e) => can(e.route));
  if (shown.length === 0) return null;

  async function download(route: CsvRoute, file: string) {
    setBusy(route);
    try {
      await downloadFile(route, range, `${file}_${range.from ?? 'all'}_${range.to ?? 'now'}.csv`);
    } catch (error) {
      void message.error(messageOf(error));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <Card size="small" title={t('users.export')}>
      <Space wrap>
        <DatePicker.RangePicker
          aria-label={t('filters.dates')}
          onChange={(r) => setRange({ from: r?.[0]?.format('YYYY-MM-DD'), to: r?.[1]?.format('YYYY-MM-DD') })}
        />
        {shown.map((e) => (
          <Button
            key={e.route}
            icon={<DownloadOutlined />}
            loading={busy === e.route}
            onClick={() => void download(e.route, e.file)}
          >
            {e.label}
          </Button>
        ))}
      </Space>
    </Card>
  );
}
