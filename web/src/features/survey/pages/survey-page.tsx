import { zodResolver } from '@hookform/resolvers/zod';
import {
  SURVEY_OPTIONS,
  SURVEY_QUESTIONS,
  type SurveyAnswers,
  type SurveyQuestion,
  surveyAnswers,
} from '@kamai/contract';
import { isMessageKey } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { CheckCircleFill } from 'antd-mobile-icons';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format-date';
import { toastError, toastSuccess, toastWarning } from '../../../lib/toast';
import { useSurvey } from '../api/get-survey';
import { useSubmitSurvey } from '../api/submit-survey';
import '../../../i18n/errors';
import '../survey.css';

type Values = z.input<typeof surveyAnswers>;

interface QuestionProps {
  id: SurveyQuestion;
  value: unknown;
  onChange?: (index: number) => void;
  error?: string;
  readOnly?: boolean;
}

/** One question of spec section 3: a group of radio options, in the order the spec lists them. */
function Question({ id, value, onChange, error, readOnly }: QuestionProps) {
  const { t } = useTranslation('survey');
  const options = Array.from({ length: SURVEY_OPTIONS[id] }, (_, index) => index);
  return (
    <fieldset id={`question-${id}`} className={error ? 'survey-question survey-question-error' : 'survey-question'}>
      <legend className="survey-question-title semibold text-15">{t(`questions.${id}.title`)}</legend>
      <div className="stack survey-options">
        {options.map((index) => (
          <label key={index} className="survey-option radius-10 row text-15">
            <input
              type="radio"
              className={readOnly ? 'survey-option-stored' : undefined}
              name={`survey-${id}`}
              value={index}
              checked={value === index}
              disabled={readOnly}
              onChange={() => onChange?.(index)}
            />
            {/* A disabled radio is drawn grey; the stored answer keeps the app's colour instead. */}
            {readOnly && <span className="survey-option-mark flex-none" aria-hidden />}
            <span>{t(`questions.${id}.options.${index}` as 'questions.a.options.0')}</span>
          </label>
        ))}
      </div>
      {error && <p className="survey-question-note text-13">{error}</p>}
    </fieldset>
  );
}

function SurveyForm() {
  const { t } = useTranslation(['survey', 'errors']);
  const submit = useSubmitSurvey();
  const form = useForm<Values, unknown, SurveyAnswers>({ resolver: zodResolver(surveyAnswers), defaultValues: {} });
  const errorText = (key: string | undefined) => (key && isMessageKey(key) ? t(`errors:${key}`) : key);

  const onInvalid = (errors: FieldErrors<Values>) => {
    const first = SURVEY_QUESTIONS.find((question) => errors[question]);
    if (!first) return;
    toastWarning(errorText(errors[first]?.message) ?? t('survey:required'));
    document.getElementById(`question-${first}`)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  };

  const onValid = async (answers: SurveyAnswers) => {
    try {
      toastSuccess((await submit.mutateAsync(answers)).message);
      // The page turns into the read-only answers, whose "submitted" note is at the top.
      window.scrollTo({ top: 0 });
    } catch (error) {
      toastError(messageOf(error));
    }
  };

  return (
    <form className="stack survey-form" noValidate onSubmit={form.handleSubmit(onValid, onInvalid)}>
      <p className="survey-intro muted text-14">{t('survey:intro')}</p>
      {SURVEY_QUESTIONS.map((id) => (
        <Controller
          key={id}
          control={form.control}
          name={id}
          render={({ field, fieldState }) => (
            <Question
              id={id}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error ? t('survey:required') : undefined}
            />
          )}
        />
      ))}
      <Button type="submit" block color="primary" shape="rounded" size="large" loading={submit.isPending}>
        {t('survey:submit')}
      </Button>
    </form>
  );
}

function SubmittedSurvey({ answers, submittedAt }: { answers: SurveyAnswers; submittedAt: string | null }) {
  const { t } = useTranslation('survey');
  return (
    <div className="stack survey-form">
      <p className="survey-submitted dark row semibold text-14" role="status">
        <CheckCircleFill aria-hidden />
        <span>
          {submittedAt ? t('submittedAt', { time: formatDateTime(submittedAt, currentLocale()) }) : t('submitted')}
        </span>
      </p>
      {SURVEY_QUESTIONS.map((id) => (
        <Question key={id} id={id} value={answers[id]} readOnly />
      ))}
    </div>
  );
}

/** /Que1: the six-question survey, answered once; afterwards the stored answers, read-only. */
export function SurveyPage() {
  const { t } = useTranslation('common');
  const survey = useSurvey();
  if (survey.isPending) return <SkeletonRows rows={6} label={t('dialog.loading')} />;
  if (survey.isError) {
    return (
      <div className="stack list-status muted text-center">
        <p>{t('request.failed')}</p>
        <Button size="small" shape="rounded" onClick={() => void survey.refetch()}>
          {t('request.retry')}
        </Button>
      </div>
    );
  }
  const { submitted, answers, submittedAt } = survey.data;
  if (submitted && answers) return <SubmittedSurvey answers={answers} submittedAt={submittedAt} />;
  return <SurveyForm />;
}
