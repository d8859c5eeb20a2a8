import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { appRouter } from './routers/index.ts';

let cached: OpenAPIObject | undefined;

/** The OpenAPI description, generated from the procedures' meta and zod schemas. */
export function openApiDocument(): OpenAPIObject {
  cached ??= generateOpenApiDocument(appRouter, {
    title: 'Course administration and submission service',
    description:
      'REST API of the course service. Authenticated operations need the headers `Username` and `Auth-Token` (or `Auth_Token`) obtained from `POST /api/auth`. Form bodies (`unit[name]=...`), JSON bodies and multipart uploads are all accepted. Errors are `{"error": "..."}`.',
    version: '1.0.0',
    baseUrl: '/',
    securitySchemes: {
      Username: { type: 'apiKey', in: 'header', name: 'Username' },
      AuthToken: { type: 'apiKey', in: 'header', name: 'Auth-Token' },
    },
  });
  return cached;
}
