import type { TaskProofSubmitBody } from '@kamai/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';

/** Uploads a screenshot (images only, checked by the server from its bytes) and answers its URL. */
export async function uploadProofImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  return (await apiCall('taskProofUpload', { form })).url;
}

/** Submits proof; the task then shows Under review until an operator decides. */
export function useSubmitProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaskProofSubmitBody) => apiRequest('taskProofSubmit', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tasks'] }),
  });
}
