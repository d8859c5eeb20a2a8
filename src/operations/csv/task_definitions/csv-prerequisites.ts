// The task-definition CSV's `prerequisites` column (docs/prerequisites.md): each definition's links
// as `[{abbreviation, task_status}]`, written on export and, on import, applied once every row's
// definition is saved (a link may name a definition a later row creates). Each row's links go in a
// savepoint of their own: a refused cell moves its row to the errors, with its definition saved and
// its links as they were.
import { AppError, badRequest } from '../../../lib/errors.ts';
import type { Em } from '../../../db/orm.ts';
import type { CsvRow } from '../../../domain/csv.ts';
import type { CsvPrerequisite } from '../../../domain/prerequisites.ts';
import { prerequisiteRows, unitLinks } from '../../units/task_definitions/prerequisites/prerequisite-rows.ts';
import { replacePrerequisites } from '../../units/task_definitions/prerequisites/save-prerequisite.ts';

/** Each definition's links, by the prerequisites' abbreviations. */
export async function prerequisitesForCsv(em: Em, definitions: { id: number; abbreviation: string }[]): Promise<Map<number, CsvPrerequisite[]>> {
  const abbreviation = new Map(definitions.map((d) => [d.id, d.abbreviation]));
  const byDefinition = new Map<number, CsvPrerequisite[]>();
  for (const link of await prerequisiteRows(
    em,
    definitions.map((d) => d.id),
  )) {
    const entry = { abbreviation: abbreviation.get(link.prerequisite_id) ?? String(link.prerequisite_id), task_status: link.task_status };
    byDefinition.set(link.task_definition_id, [...(byDefinition.get(link.task_definition_id) ?? []), entry]);
  }
  return byDefinition;
}

/** A saved row whose `prerequisites` cell was filled in. */
export interface RowPrerequisites {
  success: { row: CsvRow; message: string };
  taskDefinitionId: number;
  prerequisites: CsvPrerequisite[];
}

export async function importPrerequisites(
  em: Em,
  unitId: number,
  rows: RowPrerequisites[],
  result: { success: { row: CsvRow; message: string }[]; errors: { row: CsvRow; message: string }[] },
): Promise<void> {
  if (rows.length === 0) return;
  const { byAbbreviation } = await unitLinks(em, unitId);
  for (const r of rows) {
    try {
      const wanted = r.prerequisites.map((p) => {
        const id = byAbbreviation.get(p.abbreviation);
        if (id === undefined) throw badRequest(`no task definition of the unit has the abbreviation ${p.abbreviation}`);
        return { prerequisiteId: id, taskStatus: p.task_status };
      });
      await em.transactional((inner) => replacePrerequisites(inner, unitId, r.taskDefinitionId, wanted));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      result.success.splice(result.success.indexOf(r.success), 1);
      result.errors.push({ row: r.success.row, message: `The definition was saved, but not its prerequisites: ${error.message}` });
    }
  }
}
