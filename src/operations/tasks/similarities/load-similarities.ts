import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { READY_FOR_VIEWER } from '../../similarity/simcheck-submission.ts';
import { notFound } from '../../../lib/errors.ts';

export const similarityPartOut = z.object({
  idx: z.number().int(),
  format: z
    .enum(['html', 'pdf'])
    .nullable()
    .describe("How the web client shows the part: code parts are plain text it shows in a frame ('html'); null when there is nothing to show"),
  description: z.string(),
});

/** The spec's Similarity, with the web client's top-level fields (web-client.md §3.5) beside it. */
export const similarityOut = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  flagged: z.boolean(),
  similarity_details: z.object({ type: z.string(), pct: z.number() }),
  type: z.string().describe('MossTaskSimilarity (code, computed by the service) or TiiTaskSimilarity (documents, similarity-check service)'),
  pct: z.number(),
  ready_for_viewer: z.boolean(),
  parts: z.array(similarityPartOut),
});
export type SimilarityOut = z.infer<typeof similarityOut>;

const TYPE_NAMES = { moss: 'MossTaskSimilarity', simcheck: 'TiiTaskSimilarity' } as const;

export interface SimilarityRecord {
  id: number;
  task_id: number;
  kind: 'moss' | 'simcheck';
  pct: number;
  flagged: boolean;
  other_task_id: number | null;
  report_path: string | null;
  report_url: string | null;
}

/** The task's similarities (or the one `id`), in the order they were found. */
export async function loadSimilarities(em: Em, taskId: number, id?: number): Promise<(SimilarityRecord & { out: SimilarityOut })[]> {
  const rows = await db(em)
    .selectFrom('task_similarities as s')
    .innerJoin('tasks as t', 't.id', 's.task_id')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('tasks as ot', 'ot.id', 's.other_task_id')
    .leftJoin('projects as op', 'op.id', 'ot.project_id')
    .leftJoin('users as ou', 'ou.id', 'op.user_id')
    .leftJoin('simcheck_submissions as sc', 'sc.id', 's.simcheck_submission_id')
    .select(['s.id', 's.task_id', 's.kind', 's.pct', 's.flagged', 's.other_task_id', 's.report_path', 's.report_url'])
    .select([
      'u.first_name',
      'u.last_name',
      'u.username',
      'ou.first_name as other_first_name',
      'ou.last_name as other_last_name',
      'ou.username as other_username',
      'sc.status as simcheck_status',
    ])
    // The other side's share: the matching row the same run wrote on the other task.
    .select(
      sql<number | null>`(select r.pct from task_similarities r where r.task_id = s.other_task_id and r.kind = 'moss'
        and r.report_path = 'moss/' || split_part(s.report_path, '/', 3) || '/' || split_part(s.report_path, '/', 2) limit 1)`.as('other_pct'),
    )
    .where('s.task_id', '=', taskId)
    .$if(id !== undefined, (q) => q.where('s.id', '=', id!))
    .orderBy('s.id')
    .execute();
  return rows.map((r) => {
    const type = TYPE_NAMES[r.kind];
    const parts: SimilarityOut['parts'] = [{ idx: 0, format: null, description: `${r.first_name} ${r.last_name} (${r.username}) - ${r.pct}%` }];
    if (r.kind === 'moss') {
      // Plain text, which the web client's frame (its 'html' viewer) shows as it is.
      parts[0].format = 'html';
      parts.push({
        idx: 1,
        format: r.other_username ? 'html' : null,
        description: r.other_username
          ? `Match: ${r.other_first_name} ${r.other_last_name} (${r.other_username}) - ${r.other_pct ?? 0}%`
          : 'Match: a task that no longer exists',
      });
    } else if (r.report_path) parts[0].format = 'pdf';
    const record: SimilarityRecord = {
      id: r.id,
      task_id: r.task_id,
      kind: r.kind,
      pct: r.pct,
      flagged: r.flagged,
      other_task_id: r.other_task_id,
      report_path: r.report_path,
      report_url: r.report_url,
    };
    return {
      ...record,
      out: {
        id: r.id,
        task_id: r.task_id,
        flagged: r.flagged,
        similarity_details: { type, pct: r.pct },
        type,
        pct: r.pct,
        ready_for_viewer: r.kind === 'simcheck' && READY_FOR_VIEWER.includes(r.simcheck_status ?? ''),
        parts,
      },
    };
  });
}

/** One similarity of the task; 404 for an unknown id or another task's. */
export async function findSimilarity(em: Em, taskId: number, id: number) {
  const [found] = await loadSimilarities(em, taskId, id);
  if (!found) throw notFound('Unable to find requested Similarity');
  return found;
}

/** The task's similarities as the API lists them. */
export async function listSimilarities(em: Em, taskId: number): Promise<SimilarityOut[]> {
  return (await loadSimilarities(em, taskId)).map((s) => s.out);
}
