// Operations inside one unit. The builder loads the unit the input names (404 when there is
// none), resolves the caller's role there through src/policy, and refuses with 403 and the
// operation's message unless the unit table allows the action; then it puts the unit and the
// role in the context. A record addressed by its own id (a tutorial, a unit role) is loaded
// first (`unitOf`), and its unit is the scope.
import type { EntityName, EntitySchema } from '@mikro-orm/core';
import type { z } from 'zod';
import { Unit, type IUnit } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { can, canInUnit, roleInUnit, type SystemAction, type UnitAction, type UnitRoleName } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export interface UnitScope<I, R> {
  /** The unit's action the caller's role must allow. */
  action: UnitAction;
  /**
   * The 403 message, e.g. `(id) => \`Couldn't find Unit with id=${id}\``; given the id the input
   * names (the unit's, or with `unitOf` the record's) and, once loaded, the unit.
   */
  refused: Message<[id: number, unit?: IUnit]>;
  /** Which input field names the unit (default `unit_id`; `id` on /api/units/{id}), or where to find it in the input. */
  field?: string | ((input: I) => number);
  /** A system permission that allows the operation whatever the unit role (e.g. `admin_units`). */
  orSystem?: SystemAction;
  /** Where an unknown unit is refused with 403 instead of 404, as the original does on some routes. */
  unknownIsRefused?: boolean;
  /**
   * The input's `id` names a record of the unit rather than the unit: an entity with a `unit`
   * (a tutorial, a unit role), or a loader for one that reaches its unit otherwise (a task). It is
   * loaded first (404 when unknown) and goes in `ctx.record`.
   */
  unitOf?: EntitySchema<R> | UnitRecordLoader<R>;
  /** With `unitOf`: the input field naming the record (default `id`; `task_def_id` on /api/scorm/player/{task_def_id}/context). */
  recordField?: string;
}

/** Loads the record with this id (404 when unknown) and names its unit. */
export type UnitRecordLoader<R> = (em: Em, id: number) => Promise<{ record: R; unitId: number }>;

const UNKNOWN_UNIT = 'Unable to find requested Unit';

function scopeToUnit<S extends z.ZodType, R = undefined>(base: Base, input: S, scope: UnitScope<z.output<S>, R>) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    let id: number;
    let unitId: number;
    let record: R | undefined;
    if (scope.unitOf) {
      id = idIn(input, scope.recordField ?? 'id');
      if (typeof scope.unitOf === 'function') {
        ({ record, unitId } = await (scope.unitOf as UnitRecordLoader<R>)(ctx.em, id));
      } else {
        record = await findOr404(ctx.em, scope.unitOf as EntityName<R & object>, id);
        unitId = (record as unknown as { unit: { id: number } }).unit.id;
      }
    } else {
      const field = scope.field ?? 'unit_id';
      id = unitId = typeof field === 'function' ? field(input as z.output<S>) : idIn(input, field);
    }
    const unit = (await ctx.em.findOne(Unit, { id: unitId })) as IUnit | null;
    if (!unit) throw scope.unknownIsRefused ? forbidden(message(scope.refused, id)) : notFound(UNKNOWN_UNIT);
    const unitRole = await roleInUnit(ctx.em, ctx.user, unitId);
    const allowed = canInUnit(unitRole, scope.action) || (scope.orSystem !== undefined && can(ctx.user, scope.orSystem));
    if (!allowed) throw forbidden(message(scope.refused, id, unit));
    return next({ ctx: { unit, unitRole: unitRole as UnitRoleName | null, record: record as R } });
  });
}

/** A read inside one unit: `ctx.unit` (the entity), `ctx.unitRole` and, with `unitOf`, `ctx.record`. */
export const unitQuery = <S extends z.ZodType, R = undefined>(input: S, scope: UnitScope<z.output<S>, R>) => scopeToUnit(READ, input, scope);

/** A change inside one unit, in one transaction; the unit (and record) are loaded inside it. */
export const unitMutation = <S extends z.ZodType, R = undefined>(input: S, scope: UnitScope<z.output<S>, R>) => scopeToUnit(CHANGE, input, scope);
