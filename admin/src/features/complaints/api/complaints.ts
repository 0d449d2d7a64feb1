import type { AdminComplaintFilter, ComplaintOutcome } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

/** How often an open console asks again: a complaint raised meanwhile shows up without a reload. */
export const COMPLAINTS_POLL_MS = 30_000;

/** One page of the queue: not closed (oldest first), past a deadline, closed or all. */
export function useComplaints(state: AdminComplaintFilter, cursor: string | undefined, paused: boolean) {
  return useQuery({
    queryKey: ['complaints', 'list', state, cursor],
    queryFn: () => apiCall('adminComplaintList', { query: { state, limit: 20, cursor } }),
    placeholderData: keepPreviousData,
    refetchInterval: paused ? false : COMPLAINTS_POLL_MS,
  });
}

/** The menu's open count and whether the Grievance Officer is set (the banner on every page). */
export function useComplaintSummary() {
  return useQuery({
    queryKey: ['complaints', 'summary'],
    queryFn: () => apiCall('adminComplaintSummary'),
    refetchInterval: COMPLAINTS_POLL_MS,
  });
}

type Answer =
  | { action: 'acknowledge'; id: number }
  | { action: 'reply'; id: number; text: string }
  | { action: 'close'; id: number; text: string; outcome: ComplaintOutcome };

/** Acknowledges, replies to or closes a complaint; the queue and the counts refresh. */
export function useAnswerComplaint(onDone?: () => void) {
  return useAction(
    (answer: Answer) =>
      answer.action === 'acknowledge'
        ? apiRequest('adminComplaintAcknowledge', { body: { id: answer.id } })
        : answer.action === 'reply'
          ? apiRequest('adminComplaintReply', { body: { id: answer.id, text: answer.text } })
          : apiRequest('adminComplaintClose', {
              body: { id: answer.id, text: answer.text, outcome: answer.outcome },
            }),
    { invalidate: ['complaints'], onSuccess: () => onDone?.() },
  );
}
