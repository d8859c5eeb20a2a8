// One document's way through the similarity service (behaviour.md §11): created → has_id →
// uploaded → submission_complete → similarity_report_requested → similarity_report_complete →
// similarity_pdf_requested → similarity_pdf_downloaded, or complete_low_similarity. Each step is
// safe to run again; webhooks and the poll cron both move it on.
import { createHash, randomUUID } from 'node:crypto';
import { SimcheckSubmission, TaskDefinition, TaskSimilarity, User } from '../../../schema/index.ts';
import type { NewSubmission, RemoteStatus, SimcheckPerson, SimilarityResult } from '../../adapters/simcheck.ts';
import type { Em } from '../../db/orm.ts';
import { storageKeys } from '../../storage/index.ts';
import { call, fail, markComplete, reschedule, type ActionRun } from './simcheck-actions.ts';
import type { ISimcheckAction } from '../../../schema/index.ts';
import { ROLE } from '../../policy/index.ts';
import { refId } from '../../db/refs.ts';

type Action = ISimcheckAction;
type Submission = InstanceType<typeof SimcheckSubmission.class> & { id: number; status: string; remoteId: string | null; idx: number; filename: string };

/** The default threshold (percent) above which a document's similarity is flagged. */
export const DEFAULT_SIMCHECK_PCT = 35;

export const FINISHED = ['similarity_pdf_downloaded', 'complete_low_similarity', 'deleted'];

/** Statuses in which the service's viewer can show the report. */
export const READY_FOR_VIEWER = [
  'similarity_report_complete',
  'similarity_pdf_requested',
  'similarity_pdf_available',
  'similarity_pdf_downloaded',
  'complete_low_similarity',
];

export function isChecked(requirement: { type?: string; tii_check?: unknown } | undefined): boolean {
  if (requirement?.type !== 'document') return false;
  const v = requirement.tii_check;
  return v === true || v === 1 || v === '1' || v === 'true';
}

export function thresholdOf(requirement: { tii_pct?: unknown } | undefined): number {
  const n = Number(requirement?.tii_pct);
  return requirement?.tii_pct === undefined || requirement?.tii_pct === null || requirement?.tii_pct === '' || !Number.isFinite(n) ? DEFAULT_SIMCHECK_PCT : n;
}

interface Context {
  task_id: number;
  definition_id: number;
  abbreviation: string;
  definition_name: string;
  due_date: string | null;
  group_id: string | null;
  upload_requirements: { type?: string; tii_check?: unknown; tii_pct?: unknown }[];
  unit_id: number;
  unit_code: string;
  unit_name: string;
  unit_created_at: Date;
  student_username: string;
  student_first: string;
  student_last: string;
  student_email: string;
}

async function contextOf(em: Em, taskId: number): Promise<Context | undefined> {
  const [row] = await em.execute<Context[]>(
    `select t.id as task_id, d.id as definition_id, d.abbreviation, d.name as definition_name, d.due_date::text as due_date,
            d.simcheck_group_id as group_id, d.upload_requirements, u.id as unit_id, u.code as unit_code, u.name as unit_name,
            u.created_at as unit_created_at, s.username as student_username, s.first_name as student_first,
            s.last_name as student_last, s.email as student_email
       from tasks t join task_definitions d on d.id = t.task_definition_id join projects p on p.id = t.project_id
       join units u on u.id = p.unit_id join users s on s.id = p.user_id where t.id = ?`,
    [taskId],
  );
  return row;
}

const person = (u: { username: string; firstName: string; lastName: string; email: string }): SimcheckPerson => ({
  id: u.username,
  given_name: u.firstName,
  family_name: u.lastName,
  email: u.email,
});

/**
 * The unit's "group context" on the service. Derived from the unit's id and creation time, so it
 * is stable without a column and differs for a unit re-created under the same id elsewhere.
 */
export function groupContextId(unit: { id: number; createdAt: Date }): string {
  const h = createHash('sha256')
    .update(`unit:${unit.id}:${new Date(unit.createdAt).toISOString()}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function groupContext(em: Em, unit: { id: number; code: string; name: string; createdAt: Date }) {
  const owners = await em.execute<{ username: string }[]>(
    `select us.username from unit_roles r join users us on us.id = r.user_id where r.unit_id = ? and r.role = ? order by r.id`,
    [unit.id, ROLE.convenor],
  );
  return { id: groupContextId(unit), name: `${unit.code} ${unit.name}`, owners: owners.map((o) => o.username) };
}

/** The definition's assignment ("group") id on the service, made once and kept on the definition. */
export async function ensureGroupId(em: Em, definitionId: number): Promise<string> {
  const definition = await em.findOneOrFail(TaskDefinition, { id: definitionId });
  if (!definition.simcheckGroupId) {
    await em.nativeUpdate(TaskDefinition, { id: definitionId, simcheckGroupId: null }, { simcheckGroupId: randomUUID() });
    await em.refresh(definition);
  }
  return definition.simcheckGroupId!;
}

/**
 * Who submits to the service: the student if they accepted the EULA, else their tutor, else the
 * unit's main convenor, whoever accepted; null when nobody has.
 */
async function submitterFor(em: Em, taskId: number): Promise<number | null> {
  const [row] = await em.execute<{ id: number | null }[]>(
    `select coalesce(
       (select s.id from users s where s.id = p.user_id and s.simcheck_eula_accepted_at is not null),
       (select r.user_id from tutorial_enrolments e join tutorials tu on tu.id = e.tutorial_id join unit_roles r on r.id = tu.tutor_id
          join users x on x.id = r.user_id
         where e.project_id = p.id and (tu.tutorial_stream_id = d.tutorial_stream_id or tu.tutorial_stream_id is null)
           and x.simcheck_eula_accepted_at is not null order by (tu.tutorial_stream_id is null), e.id limit 1),
       (select r.user_id from unit_roles r join users x on x.id = r.user_id where r.id = u.main_convenor_id and x.simcheck_eula_accepted_at is not null)
     ) as id
     from tasks t join projects p on p.id = t.project_id join units u on u.id = p.unit_id join task_definitions d on d.id = t.task_definition_id
     where t.id = ?`,
    [taskId],
  );
  return row?.id ?? null;
}

async function loadSubmission(run: ActionRun, action: Action): Promise<Submission | null> {
  const id = Number(action.params?.submissionId);
  return (await run.em.findOne(SimcheckSubmission, { id })) as Submission | null;
}

/** The upload action's step runner. */
export async function runUploadSubmission(run: ActionRun, action: Action): Promise<void> {
  const submission = await loadSubmission(run, action);
  if (!submission) return fail(action, run.now, 'missing_submission', 'The document is no longer recorded');
  if (FINISHED.includes(submission.status)) return markComplete(action);
  switch (submission.status) {
    case 'created':
      if (await createRemote(run, action, submission)) await uploadFile(run, action, submission);
      return;
    case 'has_id':
      return uploadFile(run, action, submission);
    case 'uploaded':
      return updateFromSubmissionStatus(
        run,
        action,
        submission,
        await call(run, action, `Document ${submission.id} - fetching submission status`, () => run.client.submissionStatus(submission.remoteId!), [
          { status: 404, code: 'missing_submission' },
        ]),
      );
    case 'submission_complete':
      return requestReport(run, action, submission);
    case 'similarity_report_requested':
      return updateFromSimilarity(
        run,
        action,
        submission,
        await call(run, action, `Document ${submission.id} - fetching similarity report status`, () => run.client.similarityResult(submission.remoteId!)),
      );
    case 'similarity_report_complete':
      return requestPdf(run, action, submission);
    case 'similarity_pdf_requested':
      return updateFromPdfStatus(run, action, submission, await pdfStatus(run, action, submission));
  }
}

async function createRemote(run: ActionRun, action: Action, submission: Submission): Promise<boolean> {
  const taskId = refId(submission.task);
  const ctx = await contextOf(run.em, taskId);
  if (!ctx) {
    fail(action, run.now, 'missing_submission', 'The task is no longer recorded');
    return false;
  }
  const submitterId = await submitterFor(run.em, taskId);
  if (!submitterId) {
    fail(action, run.now, 'no_user_with_accepted_eula', 'None of the student, tutor, or unit lead have accepted the EULA for the similarity service');
    return false;
  }
  const submitter = await run.em.findOneOrFail(User, { id: submitterId });
  const student = { username: ctx.student_username, firstName: ctx.student_first, lastName: ctx.student_last, email: ctx.student_email };
  const groupId = await ensureGroupId(run.em, ctx.definition_id);
  const body: NewSubmission = {
    owner: ctx.student_username,
    title: `${ctx.abbreviation} - ${submission.filename} for ${ctx.student_username}`,
    submitter: submitter.username,
    owner_default_permission_set: 'LEARNER',
    submitter_default_permission_set: submitter.username === ctx.student_username ? 'LEARNER' : 'INSTRUCTOR',
    metadata: {
      owners: [person(student)],
      submitter: person(submitter),
      group_context: await groupContext(run.em, { id: ctx.unit_id, code: ctx.unit_code, name: ctx.unit_name, createdAt: ctx.unit_created_at }),
      group: { id: groupId, name: `${ctx.abbreviation} ${ctx.definition_name}`, type: 'ASSIGNMENT' },
    },
  };
  if (submitter.simcheckEulaAcceptedAt && submitter.simcheckEulaVersion) {
    body.eula = {
      user_id: submitter.username,
      accepted_timestamp: submitter.simcheckEulaAcceptedAt.toISOString(),
      language: 'en-US',
      version: submitter.simcheckEulaVersion,
    };
  }
  const created = await call(run, action, `Document ${submission.id} - fetching id`, () => run.client.createSubmission(body));
  if (!created) return false;
  submission.remoteId = created.id;
  submission.status = 'has_id';
  (submission as unknown as { submitter: number }).submitter = submitterId;
  reschedule(action, run.now);
  await run.em.flush();
  return true;
}

async function uploadFile(run: ActionRun, action: Action, submission: Submission): Promise<void> {
  const key = String(action.params?.storagePath ?? '');
  // Streamed from the store to the service as it is read (a document of any size, on any worker).
  const file = key ? await run.storage.open(key) : null;
  if (!file) return fail(action, run.now, 'missing_submission', 'The uploaded document is no longer stored');
  const uploaded = await call(
    run,
    action,
    `Document ${submission.id} - uploading file`,
    () => run.client.uploadSubmissionFile(submission.remoteId!, submission.filename, { stream: file.stream, size: file.size }),
    [
      { status: 413, code: 'invalid_submission_size_too_large' },
      { status: 422, code: 'invalid_submission_size_empty' },
      { status: 409, code: 'missing_submission' },
    ],
  );
  if (uploaded === undefined && action.errorCode) return;
  submission.status = 'uploaded';
  reschedule(action, run.now);
}

/** From the service's answer or its SUBMISSION_COMPLETE webhook. */
export async function updateFromSubmissionStatus(run: ActionRun, action: Action, submission: Submission, status: RemoteStatus | undefined): Promise<void> {
  if (!status) return;
  switch (status.status) {
    case 'CREATED':
      if (submission.status === 'uploaded') submission.status = 'has_id';
      return uploadFile(run, action, submission);
    case 'PROCESSING':
      action.retry = true;
      return;
    case 'COMPLETE':
      if (submission.status !== 'uploaded' && submission.status !== 'has_id') return;
      submission.status = 'submission_complete';
      reschedule(action, run.now);
      return requestReport(run, action, submission);
    case 'ERROR':
      return fail(action, run.now, 'custom_error', `The similarity service could not process the document: ${status.error_code ?? 'unknown error'}`);
  }
}

async function requestReport(run: ActionRun, action: Action, submission: Submission): Promise<void> {
  const requested = await call(
    run,
    action,
    `Document ${submission.id} - requesting similarity report`,
    () => run.client.requestSimilarityReport(submission.remoteId!, run.config.simcheck.indexSubmissions),
    [{ status: 409, code: 'submission_not_found_when_creating_similarity_report' }],
  );
  if (requested === undefined && action.errorCode) return;
  submission.status = 'similarity_report_requested';
  reschedule(action, run.now);
}

/** From the service's answer or its SIMILARITY_COMPLETE / SIMILARITY_UPDATED webhook. */
export async function updateFromSimilarity(run: ActionRun, action: Action, submission: Submission, result: SimilarityResult | undefined): Promise<void> {
  if (!result) return;
  if (result.status !== 'COMPLETE') {
    action.retry = true;
    return;
  }
  const taskId = refId(submission.task);
  const ctx = await contextOf(run.em, taskId);
  const pct = Math.round(Number(result.overall_match_percentage ?? 0));
  const flagged = pct > thresholdOf(ctx?.upload_requirements?.[submission.idx]);
  submission.similarityPct = pct;
  const existing = await run.em.findOne(TaskSimilarity, { simcheckSubmission: submission.id });
  if (existing) Object.assign(existing, { pct, flagged });
  else run.em.create(TaskSimilarity, { task: taskId, kind: 'simcheck', pct, flagged, simcheckSubmission: submission.id } as never);
  if (flagged) {
    submission.status = 'similarity_report_complete';
    reschedule(action, run.now);
    await run.em.flush();
    return requestPdf(run, action, submission);
  }
  submission.status = 'complete_low_similarity';
  markComplete(action);
}

async function requestPdf(run: ActionRun, action: Action, submission: Submission): Promise<void> {
  const pdf = await call(run, action, `Document ${submission.id} - requesting similarity report pdf`, () => run.client.requestReportPdf(submission.remoteId!), [
    { status: 404, code: 'submission_not_found_when_creating_similarity_report' },
  ]);
  if (!pdf) return;
  action.params = { ...action.params, pdfId: pdf.id };
  submission.status = 'similarity_pdf_requested';
  reschedule(action, run.now);
}

async function pdfStatus(run: ActionRun, action: Action, submission: Submission): Promise<string | undefined> {
  const pdfId = action.params?.pdfId;
  if (!pdfId) return undefined;
  return call(
    run,
    action,
    `Document ${submission.id} - fetching similarity report pdf status`,
    () => run.client.reportPdfStatus(submission.remoteId!, String(pdfId)),
    [
      { status: 404, code: 'missing_submission' },
      { status: 409, code: 'generation_failed' },
    ],
  );
}

/** From the service's answer or its PDF_STATUS webhook: download the report once it is ready. */
export async function updateFromPdfStatus(run: ActionRun, action: Action, submission: Submission, status: string | undefined): Promise<void> {
  if (status === 'FAILED') return fail(action, run.now, 'generation_failed');
  if (status !== 'SUCCESS') {
    if (status) action.retry = true;
    return;
  }
  const pdfId = String(action.params?.pdfId ?? '');
  // Stored as it arrives: the report is never whole in memory, and the object appears once complete.
  const report = await call(
    run,
    action,
    `Document ${submission.id} - downloading similarity report pdf`,
    () => run.client.downloadReportPdf(submission.remoteId!, pdfId),
    [
      { status: 404, code: 'missing_submission' },
      { status: 409, code: 'generation_failed' },
    ],
  );
  if (!report) return;
  const key = storageKeys.simcheckReport(submission.id);
  await run.storage.put(key, report);
  await run.em.nativeUpdate(TaskSimilarity, { simcheckSubmission: submission.id }, { reportPath: key });
  submission.status = 'similarity_pdf_downloaded';
  markComplete(action);
}
