import type { FastifyInstance } from 'fastify';
import { type AuditService, createAuditService } from './audit.service';
import { type FeatureDeps, type Handlers, registerRoutes } from './routes';

function auditHandlers(audit: AuditService): Handlers {
  return {
    adminAuditList: (ctx) => audit.list(ctx.query, ctx.actor.id),
  };
}

export function registerAudit(app: FastifyInstance, { replica }: FeatureDeps) {
  registerRoutes(app, auditHandlers(createAuditService({ replica })));
}
