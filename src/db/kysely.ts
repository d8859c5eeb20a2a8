import type { Generated } from 'kysely';
import type { InferKyselyDB } from '@mikro-orm/sql';
import type { entities } from '../../schema/index.ts';
import type { Em } from './orm.ts';

type EntityDB = InferKyselyDB<(typeof entities)[number]>;

/** The driver returns timestamps as PostgreSQL text ('2026-03-02 02:00:00+00'); the ORM parses them later. */
type AsReturned<V> = V extends Date ? string : V;

/**
 * Table and column types inferred from the entities in schema/, as the driver returns them. Serial
 * `id`s are generated, so inserts may leave them out.
 */
export type DB = {
  [T in keyof EntityDB]: { [C in keyof EntityDB[T]]: C extends 'id' ? Generated<EntityDB[T][C]> : AsReturned<EntityDB[T][C]> };
};

/**
 * A typed query builder on the entity manager's connection (inside its transaction, if any).
 * Hot read paths use it: it returns plain rows without the ORM's per-entity bookkeeping,
 * which the benchmark showed to cost several times the query itself.
 */
export function db(em: Em) {
  return em.getKysely<DB>();
}

/** A timestamp column's text as a Date. */
export function timestamp(value: string): Date;
export function timestamp(value: string | null): Date | null;
export function timestamp(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** A timestamp column's text as the API answers it: ISO 8601 in UTC. */
export function isoTimestamp(value: string): string;
export function isoTimestamp(value: string | null): string | null;
export function isoTimestamp(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
