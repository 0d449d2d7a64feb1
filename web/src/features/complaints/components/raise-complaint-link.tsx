import type { ComplaintSubjectKind } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { Link } from '../../../lib/router';
import '../complaints.css';

/** Where raising a complaint about this object starts: the form, with the object and its category preset. */
export function raiseHref(subject?: { kind: ComplaintSubjectKind; id: number }): string {
  return subject ? `${paths.complaintNew}?kind=${subject.kind}&id=${subject.id}` : paths.complaintNew;
}

/** "Raise a complaint" beside a withdrawal, a wallet entry or a payout account. */
export function RaiseComplaintLink({ kind, id }: { kind: ComplaintSubjectKind; id: number }) {
  const { t } = useTranslation('complaints');
  return (
    <Link
      to={raiseHref({ kind, id })}
      className="complaint-raise-link dark text-12"
      aria-label={t(`action.${kind}`, { id })}
    >
      {t('action.raise')}
    </Link>
  );
}
