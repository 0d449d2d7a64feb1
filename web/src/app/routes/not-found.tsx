import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { useNavigate } from '../../lib/router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <main className="not-found">
      <EmptyState title={t('notFound.title')} description={t('notFound.description')}>
        <Button color="primary" shape="rounded" onClick={() => navigate(paths.home, { replace: true })}>
          {t('notFound.action')}
        </Button>
      </EmptyState>
    </main>
  );
}
