import { type TaskProofSubmitBody, type TaskProofType, taskProofSubmitBody } from '@kamai/contract';
import { PictureOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { messageOf } from '../../../lib/api';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { uploadProofImage, useSubmitProof } from '../api/proof';
import '../tasks.css';

type Values = { taskId: string; proof: string; imageUrl: string; link: string };
type Parsed = z.output<typeof taskProofSubmitBody>;

const schema = z
  .object({ taskId: z.string(), proof: z.string(), imageUrl: z.string(), link: z.string() })
  .transform((v): TaskProofSubmitBody => ({ taskId: v.taskId, imageUrl: v.imageUrl || null, link: v.link || null }))
  .pipe(taskProofSubmitBody);

function ProofFields({ form }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation('tasks');
  const kind = form.watch('proof') as TaskProofType;
  const imageUrl = form.watch('imageUrl');
  const [fileName, setFileName] = useState('');
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setUploadError(null);
    try {
      form.setValue('imageUrl', await uploadProofImage(file), { shouldValidate: true });
    } catch (error) {
      form.setValue('imageUrl', '');
      setUploadError(messageOf(error));
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <p className="proof-hint">{t(`proof.hint.${kind || 'either'}`)}</p>
      {kind !== 'link' && (
        <div className="stack proof-upload">
          <span className="proof-upload-title semibold">{t('proof.screenshot')}</span>
          {/* The browser's own file button says "Choose File / No file chosen" in the browser's language,
              not the app's: it stays in the label for the picker and the keyboard, out of sight. */}
          <div className="proof-upload-row row flex-wrap">
            <label className="adm-button adm-button-default adm-button-small adm-button-shape-rounded proof-choose">
              <input
                type="file"
                className="visually-hidden"
                accept="image/png,image/jpeg,image/webp"
                aria-label={t('proof.screenshot')}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  setFileName(file?.name ?? '');
                  void onFile(file);
                }}
              />
              <PictureOutline aria-hidden /> {t('proof.choose')}
            </label>
            <span className="proof-file muted wrap-anywhere text-13">{fileName || t('proof.noFile')}</span>
          </div>
          {uploading && <p className="proof-status">{t('proof.uploading')}</p>}
          {imageUrl && !uploading && (
            <img className="proof-preview" src={imageUrl} alt={t('proof.preview')} width={96} height={96} />
          )}
          {uploadError && (
            <p className="proof-error wrap-anywhere" role="alert">
              {uploadError}
            </p>
          )}
        </div>
      )}
      {kind !== 'screenshot' && (
        <TextField control={form.control} name="link" label={t('proof.link')} inputMode="text" maxLength={500} />
      )}
      <p className="text-field-note muted">{t('proof.review')}</p>
    </>
  );
}

/** Proof for a proof task: a screenshot (uploaded first) and/or a link; it then waits for an operator. */
export const proofForm: FormModule<Values, Parsed> = {
  schema,
  defaultValues: { taskId: '', proof: 'either', imageUrl: '', link: '' },
  Fields: ProofFields,
  usePost: () => {
    const submit = useSubmitProof();
    return async ({ taskId, imageUrl, link }) => ({
      message: (await submit.mutateAsync({ taskId, imageUrl, link })).message,
    });
  },
};
