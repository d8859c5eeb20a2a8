import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { TRPCError } from '@trpc/server';
import qs from 'qs';
import { normalizeUrl } from '../compat/normalize.ts';
import { registerBodyParsers } from '../compat/bodies.ts';
import { registerErrorHandlers, registerRestRoutes } from '../compat/plugin.ts';
import { registerHealthRoutes } from './http/health.ts';
import { connectionLimits, limitBodyTime } from './http/limits.ts';
import { registerDrain } from './http/drain.ts';
import { registerRequestLog, requestIdFor } from './http/request-log.ts';
import { routePatterns } from './http/route-pattern.ts';
import { isOutOfFileHandles } from './lib/file-handles.ts';
import { registerInvitationRoutes } from './invitations/routes.ts';
import { registerMetricsRoutes } from './metrics/route.ts';
import { registerSimcheckWebhook } from './similarity/webhook.ts';
import { openApiDocument } from './openapi.ts';
import { appRouter } from './routers/index.ts';
import { createContext, readCredentials, type Services } from './trpc/context.ts';

/** The HTTP face of the service: REST compatibility routes, /trpc, and the API documentation. */
export async function buildApp(services: Services): Promise<FastifyInstance> {
  const routeOf = routePatterns(Object.keys(appRouter._def.procedures));
  const app = Fastify({
    // The service's logger; the one line per request is src/http/request-log.ts's, not Fastify's two.
    loggerInstance: services.logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    rewriteUrl: (req) => normalizeUrl(req.url ?? '/'),
    routerOptions: { querystringParser: (s: string) => qs.parse(s, { depth: 5, arrayLimit: 200 }), maxParamLength: 2048 },
    // JSON and form bodies; uploads have their own cap (MAX_UPLOAD_BYTES, per route).
    bodyLimit: services.config.maxBodyBytes,
    // Only behind a proxy that sets X-Forwarded-For: the client address is what sign-in throttling counts.
    trustProxy: services.config.trustProxy,
    ...connectionLimits(services.config),
    // Requests that arrive while the service stops are answered, not refused (src/http/drain.ts).
    return503OnClosing: false,
  });
  registerRequestLog(app, routeOf);
  limitBodyTime(app, services.config);
  registerDrain(app);
  // Live subscriptions never finish by themselves: the stop ends them, and their clients reconnect
  // (to another process, with the last event id they saw) instead of holding the stop for its grace.
  app.addHook('preClose', async () => services.live.endSubscriptions());
  // Accepting a connection fails with EMFILE when the process is out of file descriptors; that
  // marks readiness 503 for a while (src/lib/file-handles.ts) instead of ending the process.
  // Errors while listening reject listen() as before.
  app.server.on('error', (error) => {
    if (!isOutOfFileHandles(error) && app.server.listening) app.log.error({ err: error }, 'server error');
  });

  await app.register(cors, {
    origin: services.config.corsOrigins === '*' ? '*' : services.config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    allowedHeaders: ['Auth-Token', 'Auth_Token', 'Username', 'Content-Type', 'Authorization', 'X-Request-Id'],
    // X-Request-Id too: a web page can show it with an error, for the user to quote (docs/operating/logs.md).
    exposedHeaders: ['Content-Disposition', 'X-Request-Id'],
  });
  // Every answer's Content-Type is the only one: no browser may sniff a body (JSON, an error, a
  // download) into HTML. Set before routing, so errors and unknown routes carry it too.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });
  // Read at each scrape, so that the token can change without rebuilding the app (the tests do).
  registerMetricsRoutes(app, services.metrics, () => services.config.metrics.token, routeOf);
  await registerBodyParsers(app, { jsonOnlyPrefix: '/trpc/' });
  registerErrorHandlers(app);
  registerHealthRoutes(app, services);
  registerInvitationRoutes(app, services);
  await registerSimcheckWebhook(app, services);

  registerRestRoutes(app, appRouter, services);

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      // Bodies Fastify leaves unparsed, tRPC reads itself: without a limit unless given one.
      maxBodySize: services.config.maxBodyBytes,
      createContext: ({ req }: { req: { headers: Record<string, unknown>; ip: string } }) => createContext(services, readCredentials(req.headers), req.ip),
      // An unexpected error answers only the generic message (src/trpc/errors.ts): what it was goes to the log, as over REST.
      onError: ({ error, req }: { error: TRPCError; req: FastifyRequest }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'unexpected error');
      },
    },
  });

  // Reached as /api/openapi.json too: the compat URL normaliser drops the .json suffix.
  app.get('/api/openapi', async () => openApiDocument());
  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument() as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  return app;
}
