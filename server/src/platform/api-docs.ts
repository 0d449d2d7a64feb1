import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { addErrorResponses } from './openapi';

/** OpenAPI made from the contract's route table (registered after this), browsable under /docs. */
export async function registerApiDocs(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kamai API', version: '0.1.0', description: 'Every response is {code, message, key, data}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    // Every route's error answers, from the route table (openapi.ts).
    transformObject: (document) =>
      'openapiObject' in document ? addErrorResponses(document.openapiObject as never) : document.swaggerObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
}
