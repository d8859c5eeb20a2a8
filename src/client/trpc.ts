import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCClient, type TRPCLink } from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { statusOf, toCourseServiceError } from './errors.ts';
import { createRestClient, type RestClient } from './rest.ts';
import type { ServerRouter } from './router.ts';
import { type ClientOptions, type Fetch, requestToken, Session, type SignedInUser, trimBase } from './session.ts';

/**
 * An EventSource class that takes a `fetch` option, which is how the credential headers reach a
 * subscription: the `eventsource` package's (`import { EventSource } from 'eventsource'`). Node 22
 * has no EventSource of its own, and a browser's cannot send headers.
 */
// biome-ignore lint/suspicious/noExplicitAny: any EventSource class; httpSubscriptionLink checks its shape
export type EventSourceClass = new (url: string, init?: any) => any;

export interface CourseClientOptions extends ClientOptions {
  /** For subscriptions (`units.inboxChanges`, `projects.taskChanges`); default the global EventSource. */
  EventSource?: EventSourceClass;
}

/**
 * The service's procedures, typed (`client.units.list.query({})`), plus `$rest`, the typed REST
 * fetch signed in as the same user, and `$session`, the credentials both send.
 */
export type CourseClient = TRPCClient<ServerRouter> & {
  readonly $rest: RestClient;
  readonly $session: Session;
};

/**
 * Renews an expired session (419) once per call by signing in again, when the client has the
 * password, and retries the call; and turns every failure into a CourseServiceError.
 */
function renewalLink(session: Session): TRPCLink<ServerRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let current: Unsubscribable | undefined;
        let stopped = false;
        const attempt = (retried: boolean) => {
          const token = session.authToken;
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (!retried && session.canRenew && error instanceof TRPCClientError && statusOf(error) === 419) {
                session.renew(token).then(
                  () => {
                    if (!stopped) attempt(true);
                  },
                  (failure: unknown) => observer.error(toCourseServiceError(failure)),
                );
                return;
              }
              observer.error(toCourseServiceError(error));
            },
          });
        };
        attempt(false);
        return () => {
          stopped = true;
          current?.unsubscribe();
        };
      });
}

/**
 * A typed tRPC client of the service at `baseUrl`, signed in as `username` with `authToken`:
 * queries and mutations batched over HTTP, subscriptions over server-sent events.
 */
export function createCourseClient(options: CourseClientOptions | (Session & { EventSource?: EventSourceClass })): CourseClient {
  const session = options instanceof Session ? options : new Session(options);
  const url = `${session.baseUrl}/trpc`;
  const EventSource = options.EventSource ?? (globalThis as { EventSource?: EventSourceClass }).EventSource;
  const trpc = createTRPCClient<ServerRouter>({
    links: [
      renewalLink(session),
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          ...(EventSource && { EventSource }),
          // Called at each (re)connection, so a renewed token is used.
          eventSourceOptions: () => ({
            fetch: (input: string | URL | Request, init?: RequestInit) =>
              session.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...session.headers() } }),
          }),
        }),
        false: httpBatchLink({ url, headers: () => session.headers(), fetch: (input, init) => session.fetch(input as string, init as RequestInit) }),
      }),
    ],
  });
  const rest = createRestClient(session);
  return new Proxy(trpc, {
    get(target, key, receiver) {
      if (key === '$rest') return rest;
      if (key === '$session') return session;
      return Reflect.get(target, key, receiver);
    },
  }) as CourseClient;
}

export interface SignInOptions {
  username: string;
  password: string;
  /** A longer-lived token (the service's remember period) instead of 2 hours. */
  remember?: boolean;
}

/**
 * Signs in (`POST /api/auth`) and answers a client that keeps the password to sign in again when
 * the session expires. Wrong credentials throw a CourseServiceError with status 401, too many
 * attempts 429.
 */
export async function signIn(
  baseUrl: string,
  credentials: SignInOptions,
  options: { EventSource?: EventSourceClass; fetch?: Fetch } = {},
): Promise<CourseClient & { readonly user: SignedInUser }> {
  const answer = await requestToken(trimBase(baseUrl), credentials, options.fetch);
  const client = createCourseClient({ baseUrl, username: credentials.username, authToken: answer.auth_token, password: credentials.password, ...options });
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'user') return answer.user;
      return Reflect.get(target, key, receiver);
    },
  }) as CourseClient & { readonly user: SignedInUser };
}
