// Operations on one user the input names: the user themself, or (with `action`) a caller whose
// system role allows it; otherwise 403 with the operation's message. Checked before the user is
// looked up, so a caller who may not act learns nothing about which ids exist.
import type { z } from 'zod';
import { can, type SystemAction } from '../../policy/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export interface UserScope {
  /** The system action that lets a caller act on other users; without it, only on themself. */
  action?: SystemAction;
  /** The 403 message; given the id the input names. */
  refused: Message<[id: number]>;
  /** Which input field names the user (default `id`). */
  field?: string;
}

function scopeToUser<S extends z.ZodType>(base: Base, input: S, scope: UserScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const id = idIn(input, scope.field ?? 'id');
    const self = id === ctx.user.id;
    if (!self && !(scope.action !== undefined && can(ctx.user, scope.action))) throw forbidden(message(scope.refused, id));
    return next({ ctx: { self } });
  });
}

/** A read of one user: `ctx.self` says whether it is the caller. */
export const userQuery = <S extends z.ZodType>(input: S, scope: UserScope) => scopeToUser(READ, input, scope);

/** A change of one user, in one transaction. */
export const userMutation = <S extends z.ZodType>(input: S, scope: UserScope) => scopeToUser(CHANGE, input, scope);
