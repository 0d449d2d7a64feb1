import Button from 'antd-mobile/es/components/button';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { useNavigate } from '../../../lib/router';
import '../../../i18n/errors';
import { formatLinkedPhone } from '../format';

/** Spec section 4's "binding successful", with the way on to the account and to another link. */
export function BindingResult({ phone, onAnother }: { phone: string; onAnother: () => void }) {
  const { t } = useTranslation(['linked', 'errors']);
  const navigate = useNavigate();
  return (
    <div className="stack binding-result text-center" role="status">
      <CheckCircleFill className="binding-result-icon primary" aria-hidden />
      <h3 className="binding-result-title bold">{t('errors:binding_successful')}</h3>
      <p className="binding-result-text muted text-14">{t('result.linked', { phone: formatLinkedPhone(phone) })}</p>
      <div className="binding-result-actions flex flex-wrap">
        <Button color="primary" shape="rounded" onClick={() => navigate(paths.onlineAccounts)}>
          {t('result.viewAccounts')}
        </Button>
        <Button shape="rounded" onClick={onAnother}>
          {t('result.linkAnother')}
        </Button>
      </div>
    </div>
  );
}
