// The public face of the tasks feature.
export { completeSystemTask } from './tasks.credit';
export { tasksHandlers } from './tasks.routes';
export { createTasksService } from './tasks.service';
