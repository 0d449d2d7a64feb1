import { useTasks } from '../api/get-tasks';
import { TaskSectionsView } from './task-sections-view';

/** Home's task sections on the query cache. */
export function TaskSections() {
  return <TaskSectionsView tasks={useTasks()} />;
}
