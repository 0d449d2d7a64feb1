import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { toastError, toastSuccess } from '../../../lib/toast';

/** The user's own invite code with a copy button. */
export function InviteCode({ code }: { code: string }) {
  const { t } = useTranslation(['common', 'users']);
  const copy = async () => {
    if (await copyText(code)) toastSuccess(t('copy.done'));
    else toastError(t('copy.failed'));
  };
  return (
    <p className="invite-code row text-13 flex-wrap">
      <span>{t('users:inviteCode')}:</span> <strong className="invite-code-value mono">{code}</strong>
      <button type="button" className="invite-code-copy text-12" aria-label={t('users:copyInviteCode')} onClick={copy}>
        {t('copy.button')}
      </button>
    </p>
  );
}
