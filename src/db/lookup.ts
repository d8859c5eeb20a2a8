import type { EntityName } from '@mikro-orm/core';
import type { Em } from './orm.ts';
import { notFound } from '../lib/errors.ts';

/** Loads a record by id or answers 404 "Unable to find requested <Model>", as the original does. */
export async function findOr404<T extends object>(em: Em, entity: EntityName<T>, id: number): Promise<T> {
  const found = await em.findOne(entity, { id } as never);
  if (!found) throw notFound(`Unable to find requested ${modelName(entity)}`);
  return found as T;
}

function modelName(entity: unknown): string {
  const name = (entity as { meta?: { className?: string }; name?: string }).meta?.className ?? (entity as { name?: string }).name ?? 'record';
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * Whether an id could name a row: serial ids are PostgreSQL integers, and a larger number sent as a
 * query parameter fails the statement (22003) instead of finding nothing. Lookups through the
 * query builder answer 404 for the others without asking.
 */
export const couldBeRowId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= 2 ** 31 - 1;
