// course-service/client: a typed client of the course service for TypeScript programs (docs/client.md).
// tRPC procedures through @trpc/client, the REST API through openapi-fetch, one session for both.
export { CourseServiceError } from './errors.ts';
export { createRestClient, multipart, type FilePart, type RestClient } from './rest.ts';
export type { paths as RestPaths, operations as RestOperations, components as RestComponents } from './rest-types.ts';
export { Session, type ClientOptions, type Fetch, type SignedInUser } from './session.ts';
export { createCourseClient, signIn, type CourseClient, type CourseClientOptions, type EventSourceClass, type SignInOptions } from './trpc.ts';
export type { ServerRouter as AppRouter } from './router.ts';

import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { ServerRouter } from './router.ts';
/** Every procedure's input: `RouterInputs['units']['list']`. */
export type RouterInputs = inferRouterInputs<ServerRouter>;
/** Every procedure's output: `RouterOutputs['units']['list'][number]`. */
export type RouterOutputs = inferRouterOutputs<ServerRouter>;
