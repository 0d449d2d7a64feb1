// The public face of the admin feature (the console's dashboard, users and exports).
export { adminHandlers } from './admin.routes';
export { createAdminUsersService } from './admin-users.service';
export { createDashboardService, type PendingWithdrawals } from './dashboard.service';
export { createExportService } from './export.service';
