import type { Handlers } from '../../platform/routes';
import type { AuditService } from './audit.service';

export function auditHandlers(audit: AuditService): Handlers {
  return {
    adminAuditList: (ctx) => audit.list(ctx.query),
  };
}
