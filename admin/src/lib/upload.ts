import { UPLOAD_FIELD, type UploadData } from '@kamai/contract';
import { apiCall } from './api';

/** Sends one file to `tool/upload` (multipart) and answers its stored URL and facts. */
export function uploadFile(file: File): Promise<UploadData> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, file);
  return apiCall('adminToolUpload', { form });
}
