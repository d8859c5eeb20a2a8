import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';

export const unitZipInput = z.object({ id: idField() });
export const taskZipInput = unitZipInput.extend({ task_definition_id: idField() });

/** `<YYYY-MM-DD HH:MM:SS>-<parts>.zip`, as the original names these downloads, with anything outside letters, digits, `.-_ ` made `_`. */
export function zipDownloadName(at: Date, ...parts: string[]): string {
  const stamp = at.toISOString().slice(0, 19).replace('T', ' ');
  return `${stamp}-${parts.join('-')}.zip`.replace(/[^0-9A-Za-z.\-_ ]/g, '_');
}

export const UNIT_ZIP_REFUSED = 'Not authorised to download submissions of this unit';
