import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CursorPages } from '../lib/cursor-pages';

/** Previous / next under a server-paged table. */
export function Pager({
  pages,
  nextCursor,
  loading,
}: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  loading?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Space className="pager">
      <Typography.Text type="secondary">{t('table.page', { page: pages.page })}</Typography.Text>
      <Button icon={<LeftOutlined />} disabled={!pages.hasPrevious || loading} onClick={pages.previous}>
        {t('table.previous')}
      </Button>
      <Button disabled={!nextCursor || loading} onClick={() => nextCursor && pages.next(nextCursor)}>
        {t('table.next')} <RightOutlined />
      </Button>
    </Space>
  );
}
