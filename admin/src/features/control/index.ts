// What other features use of dual control: the wording of an answer that proposed a change.
export { saidProposed, useChangesRefresh } from './api/control';
