import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { BODY_LIMIT_BYTES } from '@kamai/contract';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import { authHandlers } from './features/auth/auth.routes';
import { createAuthService } from './features/auth/auth.service';
import { healthHandlers } from './features/health/health.routes';
import { introHandlers } from './features/intro/intro.routes';
import { createIntroService } from './features/intro/intro.service';
import { otpHandlers } from './features/otp/otp.routes';
import { type OtpSender, sandboxSender, smtpSender } from './features/otp/otp.senders';
import { createOtpService } from './features/otp/otp.service';
import { referralsHandlers } from './features/referrals/referrals.routes';
import { createReferralsService } from './features/referrals/referrals.service';
import { revenueHandlers } from './features/revenue/revenue.routes';
import { createRevenueService } from './features/revenue/revenue.service';
import { surveyHandlers } from './features/survey/survey.routes';
import { createSurveyService } from './features/survey/survey.service';
import { tasksHandlers } from './features/tasks/tasks.routes';
import { createTasksService } from './features/tasks/tasks.service';
import { usersHandlers } from './features/users/users.routes';
import { createUsersService } from './features/users/users.service';
import { walletHandlers } from './features/wallet/wallet.routes';
import { createWalletService } from './features/wallet/wallet.service';
import type { Config } from './platform/config';
import { installErrorHandler, sendError } from './platform/error-handler';
import { WindowCounter } from './platform/rate-limit';
import { registerRoutes } from './platform/routes';
import { securityHeaders } from './platform/security-headers';
import { serveApps, type WebRoots } from './platform/web';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Real SMS delivery; without it codes go to the sandbox outbox and log. */
  smsSender?: OtpSender;
  now?: () => Date;
  webRoots?: WebRoots;
}

/** Builds the whole app without listening: `main.ts` starts it, tests call `inject`. */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('authUser', undefined);
  // Every response, API and app alike, carries the request id and helmet's headers, set before the
  // handler runs so a route may still override one.
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  installErrorHandler(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kamai API', version: '0.1.0', description: 'Every response is {code, message, key, data}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  const now = deps.now ?? (() => new Date());
  const counters = new WindowCounter(() => now().getTime());
  const email = config.SMTP_URL ? smtpSender(config.SMTP_URL, config.SMTP_FROM) : sandboxSender(database.db, app.log);
  const sms = deps.smsSender ?? sandboxSender(database.db, app.log);
  const otp = createOtpService({ db: database.db, config, counters, senders: { sms, email }, now });
  const auth = createAuthService({ db: database.db, config, otp, counters, now });
  const users = createUsersService({ db: database.db });
  const wallet = createWalletService({ db: database.db });
  const tasks = createTasksService({ db: database.db, now });
  const survey = createSurveyService({ db: database.db, now });
  const intro = createIntroService({ db: database.db });
  const referrals = createReferralsService({ db: database.db });
  const revenue = createRevenueService({ db: database.db });

  registerRoutes(
    app,
    {
      ...healthHandlers(database.db),
      ...otpHandlers(otp),
      ...authHandlers(auth),
      ...usersHandlers(users),
      ...walletHandlers(wallet),
      ...tasksHandlers(tasks),
      ...surveyHandlers(survey),
      ...introHandlers(intro),
      ...referralsHandlers(referrals),
      ...revenueHandlers(revenue),
    },
    auth.resolveSession,
  );

  const spaFallback = await serveApps(
    app,
    deps.webRoots ?? { web: resolve(repoRoot, 'web/dist'), admin: resolve(repoRoot, 'admin/dist') },
  );
  app.setNotFoundHandler((request, reply) => {
    if (spaFallback(request.url, request.method, reply)) return reply;
    return sendError(request, reply, 'route_not_found', 404, {});
  });

  // A plain object, not the instance: Fastify instances are thenables, so `await` would unwrap them.
  return { app, services: { otp, auth, users, wallet, tasks, survey, intro, referrals, revenue } };
}

export type Built = Awaited<ReturnType<typeof buildApp>>;
