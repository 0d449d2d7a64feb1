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
  const { t } = useTranslation(['common', 'auth', 'linked', 'payouts', 'tasks', 'users']);
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

function Footer({ busy, canConfirm }: { busy: boolean; canConfirm: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="form-dialog-footer">
      <Button type="button" block onClick={hideForm}>
        {t('dialog.cancel')}
      </Button>
      <Button type="submit" block color="primary" loading={busy} disabled={!canConfirm}>
        {t('dialog.confirm')}
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
  const [busy, setBusy] = useState(false);
  const fieldOrder = Object.keys(module.defaultValues);

  const translateKey = (key: string | undefined) => (key && isMessageKey(key) ? t(`errors:${key}`) : key);

  const onInvalid = (errors: FieldErrors) => {
    const first = fieldOrder.find((field) => errors[field]) ?? Object.keys(errors)[0];
    const message = first ? errors[first]?.message : undefined;
    toastWarning(translateKey(typeof message === 'string' ? message : undefined) ?? t('request.failed'));
  };

  const onValid = async (values: unknown) => {
    setBusy(true);
    try {
      const outcome = await post(values);
      toastSuccess(outcome.message);
      if (outcome.next) showForm(outcome.next.name, outcome.next.data);
      else hideForm();
    } catch (error) {
      toastError(messageOf(error));
      const fields = error instanceof ApiError ? error.fields : undefined;
      for (const [field, key] of Object.entries(fields ?? {})) {
        if (fieldOrder.includes(field)) form.setError(field as Path<FieldValues>, { message: key });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)}>
      <div className="stack form-dialog-body">
        <module.Fields form={form} show={showForm} />
      </div>
      <Footer busy={busy} canConfirm />
    </form>
  );
}
