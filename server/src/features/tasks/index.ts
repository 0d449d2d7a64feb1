// The public face of the tasks feature.
export { completeSystemTask } from './tasks.credit';
export { register } from './tasks.routes';
