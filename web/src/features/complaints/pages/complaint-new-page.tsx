import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_SUBJECTS,
  COMPLAINT_TEXT_MAX,
  type ComplaintCategory,
  type ComplaintSubjectKind,
} from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/api';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { toastSuccess } from '../../../lib/toast';
import '../../../i18n/errors';
import { useRaiseComplaint } from '../api/complaints';
import '../complaints.css';

/** The category a complaint about this kind of object starts with. */
const CATEGORY_OF: Record<ComplaintSubjectKind, ComplaintCategory> = {
  withdrawal: 'withdrawal',
  entry: 'reward',
  payout_account: 'payout_account',
};

/** The object named by `?kind=&id=` (a withdrawal, wallet entry or payout account), if the address names one. */
function subjectOf(params: URLSearchParams): { kind: ComplaintSubjectKind; id: number } | undefined {
  const kind = COMPLAINT_SUBJECTS.find((k) => k === params.get('kind'));
  const id = Number(params.get('id'));
  return kind && Number.isSafeInteger(id) && id > 0 ? { kind, id } : undefined;
}

/**
 * /ComplaintNew: what it is about and what happened, in the app's language; the server checks that a
 * linked object is the caller's own. Sent, it opens the complaint with its number and deadlines.
 */
export function ComplaintNewPage() {
  const { t } = useTranslation(['complaints', 'errors']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const subject = subjectOf(params);
  const [category, setCategory] = useState<ComplaintCategory>(subject ? CATEGORY_OF[subject.kind] : 'other');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const raise = useRaiseComplaint();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    raise.mutate(
      { category, text, ...(subject ? { subject } : {}) },
      {
        onSuccess: ({ data, message }) => {
          toastSuccess(message);
          navigate(`${paths.complaint}?id=${data.id}`, { replace: true });
        },
        onError: (failure) => setError(messageOf(failure)),
      },
    );
  };

  return (
    <form className="stack complaint-form" onSubmit={submit} noValidate>
      {subject && <p className="card complaint-about text-14">{t(`about.${subject.kind}`, { id: subject.id })}</p>}
      <fieldset className="card stack complaint-categories">
        <legend className="semibold text-15">{t('form.category')}</legend>
        {COMPLAINT_CATEGORIES.map((option) => (
          <label key={option} className="complaint-category row text-14">
            <input
              type="radio"
              name="category"
              value={option}
              checked={category === option}
              onChange={() => setCategory(option)}
            />
            {t(`errors:complaint_category_${option}`)}
          </label>
        ))}
      </fieldset>
      <div className="card stack complaint-text-field">
        <label htmlFor="complaint-text" className="semibold text-15">
          {t('form.text')}
        </label>
        <textarea
          id="complaint-text"
          name="text"
          className="complaint-textarea text-15"
          rows={6}
          maxLength={COMPLAINT_TEXT_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="complaint-text-hint"
          aria-invalid={error ? true : undefined}
        />
        <span id="complaint-text-hint" className="muted text-12">
          {t('form.hint', { count: text.length, max: COMPLAINT_TEXT_MAX })}
        </span>
      </div>
      {error && (
        <p className="complaint-error text-14" role="alert">
          {error}
        </p>
      )}
      <p className="muted text-13">{t('promise')}</p>
      <Button block color="primary" type="submit" loading={raise.isPending}>
        {t('form.submit')}
      </Button>
    </form>
  );
}
