// Renewing and ending the presented session (PUT and DELETE /api/auth).
import { AuthToken } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { renewToken, type Caller, type Session } from './session-tokens.ts';
import { forbidden } from '../../lib/errors.ts';

/** Resets the session's expiry (403 for another user's name) and returns the new one. */
export async function renewSession(em: Em, caller: Caller, session: Session, input: { username: string; remember: boolean }, now: Date): Promise<Date> {
  if (input.username.toLowerCase() !== caller.username) throw forbidden('Cannot renew the token of another user');
  return renewToken(em, session, caller, now, input.remember);
}

/** Ends one session (the others of the user stay). */
export async function endSession(em: Em, session: Session): Promise<void> {
  await em.nativeDelete(AuthToken, { id: session.id });
}
