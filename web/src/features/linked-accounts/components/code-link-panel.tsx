import { zodResolver } from '@hookform/resolvers/zod';
import { linkedPhoneBody } from '@kamai/contract';
import { isMessageKey } from '@kamai/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess, toastWarning } from '../../../lib/toast';
import { forgetPairing, linkedPhoneOf, requestPairingCode, usePairing, usePairingOutcome } from '../pairing';
import { BindingResult } from './binding-result';
import { GetCodeButton } from './get-code-button';
import { PairingCode } from './pairing-code';
import { PairingStatus } from './pairing-status';

type Values = z.input<typeof linkedPhoneBody>;
type Parsed = z.output<typeof linkedPhoneBody>;

/** The number typed last, so leaving the tab and coming back shows its code again. */
let lastPhone = '';

/** Add tab, "link by verification code": number, code in two groups of 4, copy, the steps (spec section 2). */
export function CodeLinkPanel() {
  const { t } = useTranslation(['linked', 'errors', 'common']);
  const queryClient = useQueryClient();
  const form = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(linkedPhoneBody),
    defaultValues: { phone: lastPhone },
  });
  const typed = form.watch('phone');
  const phone = linkedPhoneOf(typed);
  const { pairing, waitSeconds, expiresInSeconds } = usePairing(phone);
  const outcome = usePairingOutcome(pairing, expiresInSeconds);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    lastPhone = typed;
  }, [typed]);
  useEffect(() => {
    if (outcome === 'success') void queryClient.invalidateQueries({ queryKey: ['linked', 'accounts'] });
  }, [outcome, queryClient]);

  const onValid = async (values: Parsed) => {
    setBusy(true);
    try {
      toastSuccess(await requestPairingCode(values.phone));
    } catch (error) {
      toastError(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const onInvalid = (errors: FieldErrors<Values>) => {
    const key = errors.phone?.message;
    toastWarning(key && isMessageKey(key) ? t(`errors:${key}`) : t('common:request.failed'));
  };

  if (pairing && outcome === 'success') {
    return (
      <BindingResult
        phone={pairing.phone}
        onAnother={() => {
          forgetPairing(pairing.phone);
          form.reset({ phone: '' });
        }}
      />
    );
  }

  return (
    <div className="stack link-panel">
      <p className="link-panel-intro muted text-14">{t('code.intro')}</p>
      <form noValidate className="stack link-phone-form" onSubmit={form.handleSubmit(onValid, onInvalid)}>
        <TextField
          control={form.control}
          name="phone"
          label={t('code.phone')}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          maxLength={16}
          prefix="+91"
        />
        <GetCodeButton waitSeconds={waitSeconds} loading={busy} />
      </form>
      <PairingCode code={pairing?.code} />
      <PairingStatus outcome={outcome} expiresInSeconds={expiresInSeconds} />
      <section className="link-steps text-14" aria-labelledby="code-steps-title">
        <h3 id="code-steps-title" className="link-steps-title bold text-14">
          {t('code.stepsTitle')}
        </h3>
        <ol>
          <li>{t('code.step1')}</li>
          <li>{t('code.step2')}</li>
          <li>{t('code.step3')}</li>
          <li>{t('code.step4')}</li>
        </ol>
        <p className="link-steps-note muted text-13">{t('code.note')}</p>
      </section>
    </div>
  );
}
