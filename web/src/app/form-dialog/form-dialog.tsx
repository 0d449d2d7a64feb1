import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError } from '@kamai/client';
import { isMessageKey } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import CenterPopup from 'antd-mobile/es/components/center-popup';
import SpinLoading from 'antd-mobile/es/components/spin-loading';
import { type CSSProperties, useEffect, useId, useState } from 'react';
import { type FieldErrors, type FieldValues, type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../lib/api';
import {
  type AnyFormModule,
  type FormData,
  type FormName,
  hideForm,
  showForm,
  useFormDialogState,
} from '../../lib/form-dialog';
import { QueryProvider } from '../../lib/query-client';
import { toastError, toastSuccess, toastWarning } from '../../lib/toast';
import '../../i18n/errors';
import { formRegistry } from './form-registry';

const modules = new Map<FormName, Promise<AnyFormModule>>();

function loadModule(name: FormName): Promise<AnyFormModule> {
  let promise = modules.get(name);
  if (!promise) {
    promise = formRegistry[name].load();
    // A failed chunk load may succeed on the next show.
    promise.catch(() => modules.delete(name));
    modules.set(name, promise);
  }
  return promise;
}

function useFormModule(name: FormName): { module?: AnyFormModule; failed: boolean } {
  const [loaded, setLoaded] = useState<{ name: FormName; module?: AnyFormModule; failed: boolean }>({
    name,
    failed: false,
  });
  useEffect(() => {
    let live = true;
    loadModule(name).then(
      (module) => live && setLoaded({ name, module, failed: false }),
      () => live && setLoaded({ name, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [name]);
  return loaded.name === name ? loaded : { failed: false };
}

/** The global form dialog (spec section 2): one dialog, the form chosen by name through `showForm`. */
export default function FormDialog() {
  const { t } = useTranslation(['common', 'auth', 'linked', 'payoutAccounts', 'tasks', 'users', 'withdrawals']);
  const state = useFormDialogState();
  const titleId = useId();
  const entry = state.name ? formRegistry[state.name] : undefined;
  const title = state.title ?? (entry ? t(entry.titleKey) : '');
  const width = `min(${entry?.size ?? 0}px, calc(100vw - 32px))`;
  const style = { '--min-width': width, '--max-width': width } as CSSProperties;

  return (
    <CenterPopup visible={state.visible} onClose={hideForm} destroyOnClose style={style} bodyClassName="form-dialog">
      <section role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="form-dialog-title bold text-center">
          {title}
        </h2>
        <QueryProvider>
          {state.name && <FormContent key={state.serial} name={state.name} data={state.data} />}
        </QueryProvider>
      </section>
    </CenterPopup>
  );
}

function FormContent({ name, data }: { name: FormName; data?: FormData }) {
  const { t } = useTranslation();
  const { module, failed } = useFormModule(name);
  if (module) return <FormBody module={module} data={data} />;
  return (
    <>
      <div className="stack form-dialog-body form-dialog-status muted">
        {failed ? <p>{t('request.failed')}</p> : <SpinLoading aria-label={t('dialog.loading')} />}
      </div>
      <Footer busy={false} canConfirm={false} />
    </>
  );
}

function Footer({
  busy,
  canConfirm,
  onBack,
  confirm,
}: {
  busy: boolean;
  canConfirm: boolean;
  onBack?: () => void;
  confirm?: AnyFormModule['confirm'];
}) {
  const { t } = useTranslation(['common', 'users']);
  return (
    <div className="form-dialog-footer">
      <Button type="button" block onClick={onBack ?? hideForm} disabled={busy && Boolean(onBack)}>
        {onBack ? t('formStep.back') : t('dialog.cancel')}
      </Button>
      <Button type="submit" block color={confirm?.danger ? 'danger' : 'primary'} loading={busy} disabled={!canConfirm}>
        {confirm ? t(confirm.labelKey as 'dialog.confirm') : t('dialog.confirm')}
      </Button>
    </div>
  );
}

/** Supplied data fills only the fields the form has. */
function initialValues(module: AnyFormModule, data?: FormData): FieldValues {
  const values: FieldValues = { ...module.defaultValues };
  for (const key of Object.keys(values)) {
    const value = data?.[key];
    if (typeof value === 'string') values[key] = value;
  }
  return values;
}

function FormBody({ module, data }: { module: AnyFormModule; data?: FormData }) {
  const { t } = useTranslation(['common', 'errors']);
  const form = useForm<FieldValues, unknown, unknown>({
    resolver: zodResolver(module.schema),
    defaultValues: initialValues(module, data),
  });
  const post = module.usePost();
  const check = module.review?.useCheck?.();
  const [busy, setBusy] = useState(false);
  // The parsed values under review (forms with a review step), and the answer a Done screen shows.
  const [reviewing, setReviewing] = useState<{ values: unknown } | null>(null);
  const [done, setDone] = useState<{ result: unknown } | null>(null);
  const fieldOrder = Object.keys(module.defaultValues);

  const translateKey = (key: string | undefined) => (key && isMessageKey(key) ? t(`errors:${key}`) : key);

  // Each error shows once: under its field when the form has that field, else (an answer that belongs
  // to no field: network, rate limit, a refusal of the whole request) as a toast.
  const onInvalid = (errors: FieldErrors) => {
    const stray = Object.keys(errors).find((field) => !fieldOrder.includes(field));
    const message = stray ? errors[stray]?.message : undefined;
    if (stray) toastWarning(translateKey(typeof message === 'string' ? message : undefined) ?? t('request.failed'));
  };

  const report = (error: unknown) => {
    const fields = error instanceof ApiError ? error.fields : undefined;
    const own = Object.entries(fields ?? {}).filter(([field]) => fieldOrder.includes(field));
    own.forEach(([field, key], index) => {
      form.setError(field as Path<FieldValues>, { message: key }, { shouldFocus: index === 0 });
    });
    if (own.length === 0) toastError(messageOf(error));
  };

  const onValid = async (values: unknown) => {
    if (module.review && !reviewing) {
      try {
        check?.(values);
        setReviewing({ values });
      } catch (error) {
        report(error);
      }
      return;
    }
    setBusy(true);
    try {
      const outcome = await post(values);
      if (module.Done && outcome.done !== undefined) {
        setDone({ result: outcome.done });
        return;
      }
      toastSuccess(outcome.message);
      if (outcome.next) showForm(outcome.next.name, outcome.next.data);
      else hideForm();
    } catch (error) {
      setReviewing(null);
      report(error);
    } finally {
      setBusy(false);
    }
  };

  if (done && module.Done) {
    return (
      <>
        <div className="stack form-dialog-body">
          <module.Done result={done.result} />
        </div>
        <div className="form-dialog-footer form-dialog-footer-single">
          <Button type="button" block color="primary" onClick={hideForm}>
            {t('formStep.close')}
          </Button>
        </div>
      </>
    );
  }

  const Review = module.review?.Body;
  return (
    <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)}>
      {/* The fields stay mounted under the review: Back returns to them as typed. */}
      <div
        className="stack form-dialog-body"
        hidden={Boolean(reviewing)}
        style={reviewing ? { display: 'none' } : undefined}
      >
        <module.Fields form={form} show={showForm} />
      </div>
      {reviewing && Review && (
        <div className="stack form-dialog-body">
          <Review values={reviewing.values} />
        </div>
      )}
      <Footer
        busy={busy}
        canConfirm
        onBack={reviewing ? () => setReviewing(null) : undefined}
        confirm={module.confirm}
      />
    </form>
  );
}
