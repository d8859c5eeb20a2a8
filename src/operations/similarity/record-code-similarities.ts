// The code comparison's result (workers/tasks/code-similarity.ts): a definition's moss similarities
// replaced as a whole, so a rerun gives the same rows.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { latestCode, type DefinitionCodeSettings } from './code-submissions.ts';

const INSERT_BATCH = 5_000;

export interface SimilarityRow {
  task_id: number;
  other_task_id: number;
  pct: number;
  flagged: boolean;
  report_path: string;
}

/**
 * Replaces the definition's moss similarities with `rows`, dropping those of submissions replaced
 * since they were read; a flag staff dismissed stays dismissed while both compared submissions are
 * the same. Two runs for one definition write one after the other.
 */
export async function recordCodeSimilarities(em: Em, settings: DefinitionCodeSettings, rows: SimilarityRow[], clock: Clock): Promise<void> {
  await em.transactional(async (tx) => {
    const k = db(tx);
    // Two runs for one definition write one after the other.
    await sql`select pg_advisory_xact_lock(hashtext('code_similarity'), ${settings.id})`.execute(k);
    // Work handed in since it was read is compared by the next run; its rows would be stale.
    const current = new Set((await latestCode(tx, settings)).map((e) => e.submissionId));
    const fresh = rows.filter((r) => {
      const [, a, b] = r.report_path.split('/');
      return current.has(Number(a)) && current.has(Number(b));
    });
    const taskIds = k.selectFrom('tasks').select('id').where('task_definition_id', '=', settings.id);
    const old = await k
      .deleteFrom('task_similarities')
      .where('kind', '=', 'moss')
      .where('task_id', 'in', taskIds)
      .returning(['task_id', 'report_path', 'flagged'])
      .execute();
    const dismissed = new Set(old.filter((r) => !r.flagged).map((r) => `${r.task_id} ${r.report_path}`));
    if (fresh.length === 0) return;
    const now = clock.now().toISOString();
    const values = fresh.map((r) => ({
      ...r,
      kind: 'moss' as const,
      flagged: r.flagged && !dismissed.has(`${r.task_id} ${r.report_path}`),
      created_at: now,
    }));
    // A statement takes at most 65,535 parameters; a large class's similar pairs can need more.
    for (let from = 0; from < values.length; from += INSERT_BATCH)
      await k
        .insertInto('task_similarities')
        .values(values.slice(from, from + INSERT_BATCH))
        .execute();
  });
}
