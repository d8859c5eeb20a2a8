import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';
import type { UnitScope } from '../../../trpc/scopes/index.ts';

export const unitCsvUploadInput = z.object({ id: idField(), file: uploadedFile() });
export const unitCsvInput = z.object({ id: idField() });

const rowResult = z.object({ row: z.record(z.string(), z.string()), message: z.string() });
export const importResultOut = z.object({ success: z.array(rowResult), errors: z.array(rowResult), ignored: z.array(rowResult) });

// Who may read and write a unit's students as CSV: one right each, shared by the files that use it.
/** The unit's students and their tasks as CSV: staff of the unit, or Admin. */
export const downloadStudentsCsv: UnitScope<{ id: number }, undefined> = {
  field: 'id',
  action: 'download_unit_csv',
  refused: (id) => `Not authorised to download CSV of students in unit ${id}`,
};
/** Enrol or withdraw students from a CSV: the unit's Convenor, or Admin. */
export const uploadStudentsCsv: UnitScope<{ id: number }, undefined> = {
  field: 'id',
  action: 'upload_csv',
  refused: (id) => `Not authorised to upload CSV of students to unit ${id}`,
};
