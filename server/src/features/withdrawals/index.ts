// The public face of the withdrawals feature (requests, review, and their state machine).
export { pendingFigure } from './withdrawals.queries';
export { withdrawalsHandlers } from './withdrawals.routes';
export { createWithdrawalsService } from './withdrawals.service';
export { changeState, findWithdrawal, lockWithdrawal } from './withdrawals.state';
