// Operations outside any unit (users, teaching periods, campuses, overseer images…): the caller's
// system role must allow the action (src/policy's SYSTEM_PERMISSIONS), or 403 with the
// operation's message. Checked once the input is parsed and before anything is loaded, so a
// caller who may not act learns nothing about which records exist.
import type { z } from 'zod';
import { Unit } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { can, canInUnit, roleInUnit, type SystemAction, type UnitAction } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { CHANGE, READ, type Base } from './shared.ts';

export interface SystemScope {
  /** The system action the caller's role must allow. */
  action: SystemAction;
  /** The 403 message. */
  refused: string;
  /**
   * Also allowed to a caller whose role in the unit the input names (at `field`, optional)
   * allows this unit action. An unknown unit is 404, whoever asks.
   */
  orInUnit?: { field: string; action: UnitAction };
  /** Rewrites the raw input before it is parsed (e.g. the web client's body shape into the spec's). */
  rawInput?: (em: Em, raw: unknown) => Promise<unknown>;
}

function scopeToSystem<S extends z.ZodType>(base: Base, input: S, scope: SystemScope) {
  const { rawInput } = scope;
  const start = rawInput
    ? (base.use(async ({ ctx, getRawInput, next }) => {
        const body = await rawInput(ctx.em, await getRawInput());
        return next({ getRawInput: async () => body });
      }) as Base)
    : base;
  return start.input(input).use(async ({ ctx, input, next }) => {
    const unitId = scope.orInUnit ? (input as Record<string, number | undefined>)[scope.orInUnit.field] : undefined;
    if (unitId !== undefined && !(await ctx.em.findOne(Unit, { id: unitId }, { fields: ['id'] }))) throw notFound('Unable to find requested Unit');
    const allowed = can(ctx.user, scope.action) || (unitId !== undefined && canInUnit(await roleInUnit(ctx.em, ctx.user, unitId), scope.orInUnit!.action));
    if (!allowed) throw forbidden(scope.refused);
    return next();
  });
}

/** A read outside any unit. */
export const systemQuery = <S extends z.ZodType>(input: S, scope: SystemScope) => scopeToSystem(READ, input, scope);

/** A change outside any unit, in one transaction. */
export const systemMutation = <S extends z.ZodType>(input: S, scope: SystemScope) => scopeToSystem(CHANGE, input, scope);
