import type { AccountVerification } from '@kamai/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import '../../../i18n/errors';
import { payoutAccountsKey } from '../api/payout-accounts';

/** How often the accounts are read again while one is being checked with the bank. */
const RECHECK_MS = 3000;

/** Reads the accounts again while `verification` is under way, so "Verifying…" turns into the bank's answer. */
function useRecheck(verification: AccountVerification | null | undefined) {
  const queryClient = useQueryClient();
  const verifying = verification?.state === 'verifying' || verification?.state === 'review';
  useEffect(() => {
    if (!verifying) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: payoutAccountsKey }), RECHECK_MS);
    return () => clearTimeout(timer);
  });
}

/** Why an account could not be verified: an operator's reason in the reader's language, else the bank's words. */
function useWhy(verification: AccountVerification) {
  const { t } = useTranslation('errors');
  if (verification.reasonKey) return ` · ${t(verification.reasonKey)}`;
  return verification.reason ? ` · ${verification.reason}` : '';
}

/**
 * The bank's check of a payout account (docs/decisions/payout-account-validation.md): "Verifying…",
 * "Verified · NAME" (the name the bank holds) or "Could not verify" with the bank's reason. Nothing for
 * an account saved before checks began.
 */
export function AccountCheck({ verification }: { verification: AccountVerification | null | undefined }) {
  useRecheck(verification);
  if (!verification) return null;
  return <AccountCheckText verification={verification} />;
}

function AccountCheckText({ verification }: { verification: AccountVerification }) {
  const { t } = useTranslation('payoutAccounts');
  const why = useWhy(verification);
  if (verification.state === 'verifying' || verification.state === 'review') {
    return (
      <span className="account-check account-check-verifying muted text-13">
        {t(verification.state === 'review' ? 'check.review' : 'check.verifying')}
      </span>
    );
  }
  if (verification.state === 'verified') {
    return (
      <span className="account-check account-check-verified text-13">
        {verification.verifiedBy === 'operator'
          ? t('check.verifiedByTeam')
          : t('check.verified', { name: verification.registeredName ?? '' })}
      </span>
    );
  }
  return (
    <span className="account-check account-check-unverified text-13" role="alert">
      {t('check.unverified')}
      {why}
    </span>
  );
}

/**
 * Under the withdraw dialog's account choice: who the money goes to, as the bank knows them ("Paying to
 * NAME"); while the check runs, that the payout waits for it; a refused account, why.
 */
export function PayingTo({ verification }: { verification: AccountVerification | null | undefined }) {
  useRecheck(verification);
  if (!verification) return null;
  return <PayingToText verification={verification} />;
}

function PayingToText({ verification }: { verification: AccountVerification }) {
  const { t } = useTranslation('payoutAccounts');
  const why = useWhy(verification);
  if (verification.state === 'verified' && verification.verifiedBy === 'operator') {
    return <p className="text-field-note muted paying-to semibold">{t('check.verifiedByTeam')}</p>;
  }
  if (verification.state === 'review')
    return <p className="text-field-note muted paying-to">{t('check.payingReview')}</p>;
  if (verification.state === 'verified') {
    return (
      <p className="text-field-note muted paying-to semibold">
        {t('check.payingTo', { name: verification.registeredName ?? '' })}
      </p>
    );
  }
  if (verification.state === 'verifying') {
    return <p className="text-field-note muted paying-to">{t('check.payingWaits')}</p>;
  }
  return (
    <p className="text-field-note muted paying-to account-check-unverified" role="alert">
      {t('check.unverified')}
      {why}
    </p>
  );
}
