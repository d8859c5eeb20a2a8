// A typed tRPC client over HTTP, made the way a TypeScript web client makes one, for tests that
// check what such a client sees (inferred types, errors as TRPCClientError).
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/routers/index.ts';
import type { Credentials } from './http.ts';

/** A client of the app listening at `baseUrl` (listeningBaseUrl), signed in as `creds` (none: anonymous). */
export function typedClient(baseUrl: string, creds?: Credentials) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, headers: () => (creds ? { Username: creds.username, 'Auth-Token': creds.token } : {}) })],
  });
}
