import { readCode, codeFilesOf, definitionCodeSettings, parseMossReport } from '../../../similarity/code-submissions.ts';
import { simcheckContents } from '../../../similarity/simcheck.ts';
import { similarityQuery } from '../../../trpc/scopes/index.ts';
import { notFound } from '../../../trpc/errors.ts';
import { fileResult, type FileResult } from '../../../trpc/files.ts';
import { findSimilarity } from './find.ts';
import { similarityContentsInput } from './schemas.ts';

const NO_DETAILS = 'No details to download for this similarity';

export const similarityContents = similarityQuery(similarityContentsInput, {
  action: 'view_plagiarism',
  refused: 'Not authorised to view the similarities of this task',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/tasks/{task_id}/similarities/{id}/contents/{idx}',
      tags: ['Tasks and similarities'],
      summary: 'A part of a similarity report',
      description:
        "Staff of the task's unit. Code similarities: part 0 is this task's compared code, part 1 the other task's, as `text/plain` " +
        '(several files one after another, each under a `==> name <==` line). Document similarities: part 0 is the PDF report. ' +
        `404 "${NO_DETAILS}" for other parts or a report not (or no longer) there. \`as_attachment=true\` saves it.`,
    },
    rest: { file: true },
  })
  .output(fileResult())
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const { task } = ctx;
    const similarity = await findSimilarity(ctx.em, task.id, input.id);
    if (similarity.kind === 'simcheck') {
      const report = input.idx === 0 ? await simcheckContents(ctx.em, ctx.storage, similarity.id, input.as_attachment) : null;
      if (!report) throw notFound(NO_DETAILS);
      return report;
    }
    const compared = parseMossReport(similarity.report_path);
    const settings = await definitionCodeSettings(ctx.em, task.taskDefinitionId);
    if (!compared || !settings || input.idx > 1) throw notFound(NO_DETAILS);
    const submissionId = input.idx === 0 ? compared.submissionId : compared.otherSubmissionId;
    const files = (await codeFilesOf(ctx.em, [submissionId], settings.rule)).get(submissionId);
    if (!files) throw notFound(NO_DETAILS);
    const code = await readCode(ctx.storage, files);
    const text = code.length === 1 ? code[0].content : code.map((f) => `==> ${f.filename} <==\n${f.content}`).join('\n');
    return {
      filename: `similarity-${similarity.id}-${input.idx}.txt`,
      contentType: 'text/plain; charset=utf-8',
      data: Buffer.from(text, 'utf8'),
      asAttachment: input.as_attachment,
    };
  });
