import { CourseServiceError, restError } from './errors.ts';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The service's address, e.g. `https://courses.example.edu` (without `/api` or `/trpc`). */
  baseUrl: string;
  username: string;
  /** The token `POST /api/auth` answered with. */
  authToken: string;
  /**
   * The password, kept in this client's closure so that an expired session (419) is renewed by
   * signing in again, once, and the failed call retried. Without it a 419 is thrown.
   */
  password?: string;
  /** `fetch` to use (default: the global one). */
  fetch?: Fetch;
}

/** The signed-in user `POST /api/auth` answers with (the fields every user has; the REST types have them all). */
export interface SignedInUser {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  [field: string]: unknown;
}

/** `POST /api/auth`: the user and a token, or a CourseServiceError (401 wrong credentials, 429 too many attempts). */
export async function requestToken(
  baseUrl: string,
  credentials: { username: string; password: string; remember?: boolean },
  fetchImpl: Fetch = fetch,
): Promise<{ user: SignedInUser; auth_token: string }> {
  const response = await fetchImpl(`${trimBase(baseUrl)}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw await restError(response);
  return (await response.json()) as { user: SignedInUser; auth_token: string };
}

export const trimBase = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

/**
 * The credentials a client sends (`Username`, `Auth-Token` on every call), shared by the tRPC
 * client and the REST helper made from it, and their renewal: one sign-in at a time however many
 * calls failed together.
 */
export class Session {
  readonly baseUrl: string;
  readonly username: string;
  readonly fetch: Fetch;
  #token: string;
  readonly #password: string | undefined;
  #renewing: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = trimBase(options.baseUrl);
    this.username = options.username;
    this.#token = options.authToken;
    this.#password = options.password;
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The token sent now (it changes when the session is renewed). */
  get authToken(): string {
    return this.#token;
  }

  get canRenew(): boolean {
    return this.#password !== undefined;
  }

  headers(): Record<string, string> {
    return { Username: this.username, 'Auth-Token': this.#token };
  }

  /**
   * Signs in again with the kept password. Calls that failed with the token `failedToken` share one
   * renewal; a call that failed with an older token than the current one just retries.
   */
  renew(failedToken: string): Promise<void> {
    if (this.#password === undefined)
      return Promise.reject(new CourseServiceError(419, 'The session expired and this client has no password to sign in again'));
    if (failedToken !== this.#token) return Promise.resolve();
    this.#renewing ??= requestToken(this.baseUrl, { username: this.username, password: this.#password }, this.fetch)
      .then((answer) => {
        this.#token = answer.auth_token;
      })
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }
}
