import { lazy, Suspense } from 'react';
import { initI18n } from '../../i18n';
import { useFormDialogState } from '../../lib/form-dialog';

// With every English namespace (the forms' texts are not among the first screen's, i18n/resources.ts).
const FormDialog = lazy(async () => (await Promise.all([import('./form-dialog'), initI18n()]))[0]);

/** Mounts the dialog (and fetches its code) only once some form has been asked for. */
export function FormDialogHost() {
  const { name } = useFormDialogState();
  if (!name) return null;
  return (
    <Suspense fallback={null}>
      <FormDialog />
    </Suspense>
  );
}
