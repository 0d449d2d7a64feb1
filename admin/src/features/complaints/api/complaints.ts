import type { AdminComplaintFilter, ComplaintOutcome } from '@kamai/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, apiRequest } from '../../../lib/api';
import { useLiveList } from '../../../lib/live';
import { useAction } from '../../../lib/use-action';

/** How often the Grievance Officer banner asks again (set by an admin meanwhile). */
const SUMMARY_POLL_MS = 30_000;

/** One page of the queue: not closed (oldest first), past a deadline, closed or all; kept live (lib/live.ts). */
export function useComplaints(state: AdminComplaintFilter, cursor: string | undefined) {
  const live = useLiveList();
  return useQuery({
    queryKey: ['complaints', 'list', state, cursor],
    queryFn: () => apiCall('adminComplaintList', { query: { state, limit: 20, cursor } }),
    placeholderData: keepPreviousData,
    ...live,
  });
}

/** Whether the Grievance Officer is set (the banner on every page). */
export function useComplaintSummary() {
  return useQuery({
    queryKey: ['complaints', 'summary'],
    queryFn: () => apiCall('adminComplaintSummary'),
    refetchInterval: SUMMARY_POLL_MS,
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
    { invalidate: ['complaints'], onSuccess: () => onDone?.(), onStale: () => onDone?.() },
  );
}
