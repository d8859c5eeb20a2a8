import type { IUser } from '../../schema/index.ts';
import { forbidden } from '../trpc/errors.ts';
import { SYSTEM_PERMISSIONS, type SystemAction } from './permissions.ts';

export { canAssignRole, type SystemAction } from './permissions.ts';

/** May this user perform a system-level action? */
export function can(user: Pick<IUser, 'systemRole'>, action: SystemAction): boolean {
  return SYSTEM_PERMISSIONS[user.systemRole].has(action);
}

/** Refuses with 403 and the given message unless the user may perform the action. */
export function authorize(user: Pick<IUser, 'systemRole'>, action: SystemAction, message: string): void {
  if (!can(user, action)) throw forbidden(message);
}
