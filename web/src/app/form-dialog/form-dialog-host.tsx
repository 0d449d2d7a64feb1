import { lazy, Suspense } from 'react';
import { useFormDialogState } from '../../lib/form-dialog';

const FormDialog = lazy(() => import('./form-dialog'));

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
