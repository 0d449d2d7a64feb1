// The public face of the revenue feature.
export { revenueHandlers } from './revenue.routes';
export { createRevenueService } from './revenue.service';
