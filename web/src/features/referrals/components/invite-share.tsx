import Button from 'antd-mobile/es/components/button';
import { LinkOutline, UploadOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { inviteLink } from '../../../lib/pending-invite';
import { toastError, toastSuccess } from '../../../lib/toast';
import { whatsAppLink } from '../share-link';

async function copy(text: string, done: string, failed: string) {
  if (await copyText(text)) toastSuccess(done);
  else toastError(failed);
}

/** The caller's invite code and link, to copy or hand to the phone's share sheet. */
export function InviteShare({ code }: { code?: string }) {
  const { t } = useTranslation(['referrals', 'common']);
  const link = code ? inviteLink(code) : '';
  const canShare = typeof navigator.share === 'function';
  const share = async () => {
    try {
      await navigator.share({ title: t('referrals:shareTitle'), text: t('referrals:shareText', { code }), url: link });
    } catch {
      // The user closed the share sheet; nothing to report.
    }
  };
  return (
    <section className="stack hero-card invite-card" aria-labelledby="invite-card-title">
      <h2 id="invite-card-title" className="invite-card-label text-13">
        {t('referrals:codeLabel')}
      </h2>
      <div className="invite-card-code-row row space-between">
        {code ? (
          <strong className="invite-card-code mono">{code}</strong>
        ) : (
          <span className="skeleton-line skeleton-line-light" aria-hidden />
        )}
        <Button
          size="mini"
          shape="rounded"
          className="hero-card-button"
          disabled={!code}
          aria-label={t('referrals:copyCode')}
          onClick={() => {
            if (code) void copy(code, t('common:copy.done'), t('common:copy.failed'));
          }}
        >
          {t('common:copy.button')}
        </Button>
      </div>
      <p className="invite-card-label text-13">{t('referrals:linkLabel')}</p>
      <p className="invite-card-link mono wrap-anywhere text-12">{link || '\u00a0'}</p>
      <div className="invite-card-actions flex flex-wrap">
        <Button
          size="small"
          shape="rounded"
          className="hero-card-button"
          disabled={!code}
          onClick={() => copy(link, t('common:copy.done'), t('common:copy.failed'))}
        >
          <LinkOutline aria-hidden /> {t('referrals:copyLink')}
        </Button>
        {canShare ? (
          <Button size="small" shape="rounded" className="hero-card-button" disabled={!code} onClick={share}>
            <UploadOutline aria-hidden /> {t('referrals:share')}
          </Button>
        ) : (
          code && (
            // No share sheet (most desktop browsers): WhatsApp's click-to-chat link, which opens the
            // app or WhatsApp Web with the message filled in.
            <a
              className="adm-button adm-button-default adm-button-small adm-button-shape-rounded hero-card-button"
              href={whatsAppLink(`${t('referrals:shareText', { code })} ${link}`)}
              target="_blank"
              rel="noopener noreferrer"
            >
              <UploadOutline aria-hidden /> {t('referrals:shareWhatsApp')}
            </a>
          )
        )}
      </div>
    </section>
  );
}
