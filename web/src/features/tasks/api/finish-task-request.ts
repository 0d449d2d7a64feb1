import { apiRequest } from '../../../lib/api';

/** Claims a task's reward (no TanStack Query here: Home's task cards claim before it loads). */
export function finishTask(taskId: number) {
  return apiRequest('taskFinish', { body: { taskId } });
}
