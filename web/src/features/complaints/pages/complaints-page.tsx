import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { paths } from '../../../config/paths';
import { useNavigate } from '../../../lib/router';
import { useComplaints } from '../api/complaints';
import { ComplaintRow } from '../components/complaint-row';
import '../complaints.css';

/** /Complaints: the caller's complaints, newest first, and raising a new one. */
export function ComplaintsPage() {
  const { t } = useTranslation('complaints');
  const navigate = useNavigate();
  const query = useComplaints();
  return (
    <PagedList
      query={query}
      label={t('list.label')}
      keyOf={(item) => item.id}
      renderItem={(item) => <ComplaintRow item={item} />}
      empty={{ title: t('list.empty.title'), description: t('promise') }}
      header={
        <div className="complaints-top">
          <Button block color="primary" fill="outline" onClick={() => navigate(paths.complaintNew)}>
            {t('action.raise')}
          </Button>
        </div>
      }
    />
  );
}
