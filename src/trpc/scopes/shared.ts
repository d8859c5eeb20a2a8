// What every scope builder shares: its two bases and reading an id out of the parsed input.
import { authedMutation, authedProcedure } from '../core.ts';

/** authedMutation is authedProcedure inside a transaction: the same context, so one builder serves both. */
export type Base = typeof authedProcedure;

/** A read: the record is loaded and checked outside any transaction. */
export const READ: Base = authedProcedure;

/** A change: the record is loaded and checked inside the change's one transaction. */
export const CHANGE = authedMutation as Base;

export function idIn(input: unknown, field: string): number {
  return (input as Record<string, number>)[field];
}

/** A message given, or made from what the scope knows (e.g. the id, or the record to name it). */
export type Message<A extends unknown[]> = string | ((...args: A) => string);

export function message<A extends unknown[]>(refused: Message<A>, ...args: A): string {
  return typeof refused === 'function' ? refused(...args) : refused;
}
