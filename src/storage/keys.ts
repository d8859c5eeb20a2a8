// Keys name stored files. They are built here from ids only, so no name a user sends can reach a
// path; validKey is the second line of defence for every key any caller passes in.

export class StorageKeyError extends Error {}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** Throws StorageKeyError unless `key` is relative, `/`-separated, without `.`/`..` or empty segments. */
export function validKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..' || segment.includes('..')) {
      throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
    }
  }
  return key;
}

const id = (n: number | string): string => {
  const s = String(n);
  if (!/^[0-9]+$/.test(s)) throw new StorageKeyError(`Invalid id in storage key: ${JSON.stringify(n)}`);
  return s;
};

/** Where each kind of file lives, by the ids of what it belongs to. */
export const storageKeys = {
  taskSheet: (taskDefinitionId: number) => `task_definitions/${id(taskDefinitionId)}/sheet.pdf`,
  taskResources: (taskDefinitionId: number) => `task_definitions/${id(taskDefinitionId)}/resources.zip`,
  taskAssessmentResources: (taskDefinitionId: number) => `task_definitions/${id(taskDefinitionId)}/assessment_resources.zip`,
  /** The online test's SCORM package, as uploaded (docs/online-tests.md); served file by file, never unpacked. */
  scormPackage: (taskDefinitionId: number) => `task_definitions/${id(taskDefinitionId)}/scorm.zip`,
  /** One uploaded file of a submission, `NNN-<kind>.<ext>` in upload-requirement order, as the original names them. */
  submissionFile: (submissionId: number, idx: number, kind: string, extension: string) =>
    `submissions/${id(submissionId)}/${String(idx).padStart(3, '0')}-${word(kind)}${ext(extension)}`,
  /** The PDF assembled from a submission (shared by every member of a group submission). */
  submissionPdf: (submissionId: number) => `submissions/${id(submissionId)}/submission.pdf`,
  commentAttachment: (commentId: number, extension: string) => `comments/${id(commentId)}${ext(extension)}`,
  /**
   * A check-in's evidence file (docs/check-ins.md). `version` (the time it was stored, in ms) gives a
   * replacement a key of its own, so removing the old file after the commit never removes the new.
   */
  engagementAttachment: (engagementId: number, version: number, extension: string) => `engagements/${id(engagementId)}/${id(version)}${ext(extension)}`,
  /** A discussion's n-th audio prompt (1-based) and the student's reply, stored as uploaded; the type is read from the bytes when served. */
  discussionPrompt: (commentId: number, n: number) => `discussions/${id(commentId)}/prompt-${id(n)}`,
  discussionReply: (commentId: number) => `discussions/${id(commentId)}/reply`,
  portfolioPart: (projectId: number, partId: number, extension: string) => `portfolios/${id(projectId)}/parts/${id(partId)}${ext(extension)}`,
  portfolio: (projectId: number) => `portfolios/${id(projectId)}/portfolio.pdf`,
  /** The similarity service's PDF report for one checked document (a simcheck submission). */
  simcheckReport: (simcheckSubmissionId: number) => `similarity/simcheck/${id(simcheckSubmissionId)}.pdf`,
  /** What an automated-assessment run left: output.txt, output.yaml, build-diff.txt, run-diff.txt. */
  assessmentOutput: (assessmentId: number, file: 'output.txt' | 'output.yaml' | 'build-diff.txt' | 'run-diff.txt') => `overseer/${id(assessmentId)}/${file}`,
};

const word = (s: string): string => {
  if (!/^[a-z_]+$/.test(s)) throw new StorageKeyError(`Invalid word in storage key: ${JSON.stringify(s)}`);
  return s;
};

/** A file extension from a user's file name, kept only when it is plain letters and digits. */
const ext = (extension: string): string => {
  const e = extension.replace(/^\./, '').toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(e) ? `.${e}` : '';
};
