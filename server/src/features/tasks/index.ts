// The public face of the tasks feature.
export { completeSystemTask } from './tasks.credit';
export { clearUserProofs, completionsOf, proofsOf, rejectPendingProofs } from './tasks.queries';
export { register } from './tasks.routes';
