// GET .../submissions/timestamps (spec §4, §8 item 2): the latest ten uploads, as text lines.
import type { Em } from '../../../../db/orm.ts';
import { timestampLines } from '../../../../domain/submission-files.ts';
import { countFilesEntries, filesEntries, sharingTaskIds } from '../submission/submission-files.ts';

/** The times of the task's (or its group's) latest ten uploads, one a line, and how many there are; empty without a task. */
export async function submissionTimestamps(em: Em, taskId: number | null): Promise<string> {
  if (taskId === null) return '';
  const taskIds = await sharingTaskIds(em, taskId);
  const entries = await filesEntries(em, taskIds, 10);
  return timestampLines(
    entries.map((e) => e.submittedAt),
    await countFilesEntries(em, taskIds),
  );
}
