import type { SurveyAnswers } from '@kamai/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function submitSurvey(body: SurveyAnswers) {
  return apiRequest('surveySubmit', { body });
}

/** Stores the answers; the server credits the survey task with them, so balance and tasks refetch too. */
export function useSubmitSurvey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: submitSurvey, onSuccess: () => queryClient.invalidateQueries() });
}
