// A part of a similarity report: a code similarity's two sides as text, a document similarity's PDF report.
import type { Em } from '../../../db/orm.ts';
import { codeFilesOf, definitionCodeSettings, parseMossReport, readCode } from '../../similarity/code-submissions.ts';
import { simcheckContents } from '../../similarity/simcheck.ts';
import type { Storage } from '../../../storage/index.ts';
import { notFound } from '../../../lib/errors.ts';
import type { FileResult } from '../../../lib/files.ts';
import { findSimilarity } from './load-similarities.ts';

export const NO_DETAILS = 'No details to download for this similarity';

/** Part `idx` of similarity `id` of the task; 404 NO_DETAILS for another part or a report not (or no longer) there. */
export async function similarityContents(
  em: Em,
  storage: Storage,
  task: { id: number; taskDefinitionId: number },
  input: { id: number; idx: number; as_attachment: boolean },
): Promise<FileResult> {
  const similarity = await findSimilarity(em, task.id, input.id);
  if (similarity.kind === 'simcheck') {
    const report = input.idx === 0 ? await simcheckContents(em, storage, similarity.id, input.as_attachment) : null;
    if (!report) throw notFound(NO_DETAILS);
    return report;
  }
  const compared = parseMossReport(similarity.report_path);
  const settings = await definitionCodeSettings(em, task.taskDefinitionId);
  if (!compared || !settings || input.idx > 1) throw notFound(NO_DETAILS);
  const submissionId = input.idx === 0 ? compared.submissionId : compared.otherSubmissionId;
  const files = (await codeFilesOf(em, [submissionId], settings.rule)).get(submissionId);
  if (!files) throw notFound(NO_DETAILS);
  const code = await readCode(storage, files);
  const text = code.length === 1 ? code[0].content : code.map((f) => `==> ${f.filename} <==\n${f.content}`).join('\n');
  return {
    filename: `similarity-${similarity.id}-${input.idx}.txt`,
    contentType: 'text/plain; charset=utf-8',
    data: Buffer.from(text, 'utf8'),
    asAttachment: input.as_attachment,
  };
}
