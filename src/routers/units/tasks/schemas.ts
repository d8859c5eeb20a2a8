// /api/units/{id}/tasks/...: the unit's id and the inbox row, shared with the unit's feedback list.
export { inboxTaskOut, unitIdInput } from '../schemas.ts';
