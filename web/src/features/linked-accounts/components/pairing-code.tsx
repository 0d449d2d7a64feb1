import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { toastError, toastSuccess } from '../../../lib/toast';
import { codeGroups } from '../format';

/** The 8-character pairing code in two groups of 4 (`*` until it arrives), with a copy button. */
export function PairingCode({ code }: { code?: string }) {
  const { t } = useTranslation(['linked', 'common']);
  const groups = codeGroups(code);
  const copy = async () => {
    if (!code) return;
    if (await copyText(code)) toastSuccess(t('common:copy.done'));
    else toastError(t('common:copy.failed'));
  };
  return (
    <div className="pairing-code row space-between flex-wrap">
      <output
        className={
          code ? 'pairing-code-value mono flex primary' : 'pairing-code-value mono flex primary pairing-code-empty'
        }
        aria-label={t('code.label')}
      >
        <span className="pairing-code-group">{groups[0]}</span> <span className="pairing-code-group">{groups[1]}</span>
      </output>
      <Button
        type="button"
        size="small"
        shape="rounded"
        color="primary"
        fill="outline"
        disabled={!code}
        aria-label={t('code.copy')}
        onClick={copy}
      >
        {t('common:copy.button')}
      </Button>
    </div>
  );
}
