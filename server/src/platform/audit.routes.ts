import type { AuditService } from './audit.service';
import type { Handlers } from './routes';

export function auditHandlers(audit: AuditService): Handlers {
  return {
    adminAuditList: (ctx) => audit.list(ctx.query),
  };
}
