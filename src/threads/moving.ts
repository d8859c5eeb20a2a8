// Moving buffers between the event loop and the threads instead of copying them. Kept apart from
// pool.ts so that a thread's own modules load no pool.
import { move, transferableSymbol, valueSymbol } from 'piscina';

/**
 * The bytes as a Uint8Array that owns its whole ArrayBuffer, so it can be moved: small Node
 * buffers are slices of a shared pool, and moving that pool would take it from everyone.
 */
export function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** A thread task's result whose `buffers` are moved to the caller rather than copied. */
export function moveBack<T>(value: T, buffers: ArrayBuffer[]): T {
  return move({ [transferableSymbol]: buffers, [valueSymbol]: value } as never) as T;
}
