import { ApiError } from '@kamai/client';
import { linkedPhoneBody } from '@kamai/contract';
import { isMessageKey, PHONE_COUNTRY_CODE } from '@kamai/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { messageOf } from '../../../lib/api';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { toastError, toastSuccess, toastWarning } from '../../../lib/toast';
import { isBound } from '../api/is-bound';
import { GetCodeButton } from '../components/get-code-button';
import { PairingCode } from '../components/pairing-code';
import { PairingStatus } from '../components/pairing-status';
import {
  forgetPairing,
  linkedPhoneOf,
  outcomeOf,
  pairingOf,
  requestPairingCode,
  usePairing,
  usePairingOutcome,
} from '../pairing';
import '../linked-accounts.css';

type Values = z.input<typeof linkedPhoneBody>;
type Parsed = z.output<typeof linkedPhoneBody>;

function RebindFields({ form }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation(['linked', 'errors', 'common']);
  const phone = linkedPhoneOf(form.watch('phone'));
  const { pairing, waitSeconds, expiresInSeconds } = usePairing(phone);
  const outcome = usePairingOutcome(pairing, expiresInSeconds);
  const [busy, setBusy] = useState(false);

  const getCode = async () => {
    if (!(await form.trigger('phone'))) {
      const key = form.getFieldState('phone').error?.message;
      toastWarning(key && isMessageKey(key) ? t(`errors:${key}`) : t('common:request.failed'));
      return;
    }
    const target = linkedPhoneOf(form.getValues('phone'));
    if (!target) return;
    setBusy(true);
    try {
      toastSuccess(await requestPairingCode(target));
    } catch (error) {
      toastError(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <TextField
        control={form.control}
        name="phone"
        label={t('rebind.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={16}
        prefix="+91"
      />
      <GetCodeButton waitSeconds={waitSeconds} loading={busy} onClick={getCode} />
      <PairingCode code={pairing?.code} />
      <PairingStatus outcome={outcome} expiresInSeconds={expiresInSeconds} />
      <p className="text-field-note muted">{t('rebind.hint')}</p>
    </>
  );
}

/**
 * The global dialog's "re-bind" form (spec section 2): number, code with a 10 s countdown on its button.
 * Confirm reports where the re-bind stands: finished ("binding successful"), or waiting for the
 * messaging app ("rebinding"; the account list keeps watching it).
 */
export const rebindForm: FormModule<Values, Parsed> = {
  schema: linkedPhoneBody,
  defaultValues: { phone: '' },
  Fields: RebindFields,
  usePost: () => {
    const { t } = useTranslation(['linked', 'errors']);
    const queryClient = useQueryClient();
    return async ({ phone }) => {
      const bound = await isBound(phone.slice(PHONE_COUNTRY_CODE.length));
      const pairing = pairingOf(phone);
      await queryClient.invalidateQueries({ queryKey: ['linked', 'accounts'] });
      if (pairing && outcomeOf(pairing, bound) === 'success') {
        forgetPairing(phone);
        return { message: t('errors:binding_successful') };
      }
      if (bound.pairingPending) return { message: t('errors:rebinding') };
      throw new ApiError({ code: 0, key: 'rebind_no_code', message: t('rebind.noCode') });
    };
  },
};
