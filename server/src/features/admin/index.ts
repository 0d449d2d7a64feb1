// The public face of the admin feature (the console's dashboard, users and exports).

export { register } from './admin.routes';
export type { PendingWithdrawals } from './dashboard.service';
export { type HostOperator, type HostResetResult, resetAdminFromHost } from './host-reset';
