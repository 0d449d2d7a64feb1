import type { RouteData } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { QRCodeSVG } from 'qrcode.react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { toastError } from '../../../lib/toast';
import { useNow } from '../../../lib/use-now';
import { getQrCode, useQrStatus } from '../api/get-qr-code';
import { BindingResult } from './binding-result';

type Qr = RouteData<'linkedGetQrCode'>;

/**
 * A QR code lasts a minute, and a user may ask for 30 codes or QR codes an hour: the page renews an
 * expired one by itself a few times while it is in view, then waits for a tap.
 */
const AUTO_RENEWALS = 4;

/** Add tab, "QR code binding" (spec section 2). Its own chunk: the QR library loads only here. */
export default function QrLinkPanel() {
  const { t } = useTranslation('linked');
  const queryClient = useQueryClient();
  const [qr, setQr] = useState<{ data: Qr; expiresAt: number }>();
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const renewals = useRef(0);
  const status = useQrStatus(qr?.data.id);
  const now = useNow(qr !== undefined);
  const secondsLeft = qr ? Math.max(0, Math.ceil((qr.expiresAt - now) / 1000)) : 0;
  const linkedPhone = status.data?.state === 'linked' ? status.data.phone : null;
  const expired = qr !== undefined && !linkedPhone && (secondsLeft === 0 || status.data?.state === 'expired');

  const load = useCallback(async () => {
    setLoading(true);
    try {
      // The countdown runs on this device's clock from the answer, so a skewed clock cannot shorten it.
      const data = await getQrCode();
      setQr({ data, expiresAt: Date.now() + data.ttlSeconds * 1000 });
      setFailed(false);
    } catch (error) {
      setFailed(true);
      toastError(messageOf(error));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!expired || loading || renewals.current >= AUTO_RENEWALS || document.visibilityState !== 'visible') return;
    renewals.current += 1;
    void load();
  }, [expired, loading, load]);

  useEffect(() => {
    if (linkedPhone) void queryClient.invalidateQueries({ queryKey: ['linked', 'accounts'] });
  }, [linkedPhone, queryClient]);

  const renew = () => {
    renewals.current = 0;
    void load();
  };

  if (linkedPhone) return <BindingResult phone={linkedPhone} onAnother={renew} />;

  return (
    <div className="stack link-panel">
      <p className="link-panel-intro muted text-14">{t('qr.intro')}</p>
      <div className="qr-box">
        {qr ? (
          <QRCodeSVG
            className={expired ? 'qr-image qr-image-expired' : 'qr-image'}
            value={qr.data.payload}
            size={200}
            marginSize={2}
            title={t('qr.image')}
            role="img"
            aria-label={t('qr.image')}
          />
        ) : (
          <div className="qr-image skeleton-line qr-placeholder" aria-hidden />
        )}
        {(expired || failed) && !loading && (
          <div className="stack qr-overlay semibold text-14 text-center">
            <p>{failed ? t('qr.loadFailed') : t('qr.expired')}</p>
            <Button size="small" shape="rounded" color="primary" onClick={renew}>
              {t('qr.refresh')}
            </Button>
          </div>
        )}
      </div>
      <p className="pairing-status muted row text-13" role="status">
        {qr && !expired ? t('qr.expiresIn', { seconds: secondsLeft }) : ''}
      </p>
      <section className="link-steps text-14" aria-labelledby="qr-steps-title">
        <h3 id="qr-steps-title" className="link-steps-title bold text-14">
          {t('code.stepsTitle')}
        </h3>
        <ol>
          <li>{t('qr.step1')}</li>
          <li>{t('qr.step2')}</li>
          <li>{t('qr.step3')}</li>
        </ol>
        {/* A phone cannot scan its own screen: the code is for a second device. */}
        <p className="link-steps-note muted text-13">{t('qrSecondDevice')}</p>
      </section>
    </div>
  );
}
