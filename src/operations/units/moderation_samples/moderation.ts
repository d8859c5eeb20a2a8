// Moderation (docs/marking/notes-moderation-escalation.md): the convenor draws a sample of each
// assessor's completed tasks of one definition, at random and fixed once drawn; a moderator (a
// convenor, or staff the convenor named on the sample) agrees or disagrees with each assessment;
// the report gives disagreement rates per tutor. Every list is one statement whatever its size.
import { sql } from 'kysely';
import type { ModerationVerdict } from '../../../../schema/marking-oversight.ts';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db, isoTimestamp } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';

/** The assessment being moderated: a task assessed as complete. */
const COMPLETE: TaskStatus = 'complete';
export const MAX_MODERATION_COMMENT = 4_000;

export interface SampleOut {
  id: number;
  unit_id: number;
  task_definition_id: number;
  percent: number;
  moderator_ids: number[];
  created_by_id: number | null;
  created_at: string;
  items: number;
  reviewed: number;
  disagreed: number;
}

export interface ItemOut {
  id: number;
  sample_id: number;
  task_id: number;
  project_id: number;
  task_definition_id: number;
  student_name: string;
  assessor_id: number;
  assessor_name: string;
  status: string;
  grade: number | null;
  quality_pts: number;
  verdict: ModerationVerdict | null;
  comment: string | null;
  reviewer_id: number | null;
  reviewed_at: string | null;
}

export interface ReportRow {
  tutor_id: number;
  tutor_name: string;
  task_definition_id: number | null;
  sampled: number;
  reviewed: number;
  disagreed: number;
  /** disagreed / reviewed, null before any review. */
  rate: number | null;
}

const UNKNOWN_SAMPLE = 'Unable to find requested Moderation sample';

async function checkStaff(em: Em, unitId: number, ids: number[], field: string): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await db(em).selectFrom('unit_roles').select('user_id').where('unit_id', '=', unitId).where('user_id', 'in', unique).execute();
  const found = new Set(rows.map((r) => r.user_id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) throw badRequest(`${field}: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not staff of this unit`);
  return unique;
}

/** The unit's samples (or one), newest first, with their progress: one statement. */
export async function sampleRows(em: Em, unitId: number, only?: { sampleId?: number; moderatorId?: number }): Promise<SampleOut[]> {
  const rows = await db(em)
    .selectFrom('moderation_samples as s')
    .select([
      's.id',
      's.unit_id',
      's.task_definition_id',
      's.percent',
      's.moderator_ids',
      's.created_by_id',
      's.created_at',
      sql<number>`(select count(*) from moderation_items i where i.sample_id = s.id)::int`.as('items'),
      sql<number>`(select count(i.verdict) from moderation_items i where i.sample_id = s.id)::int`.as('reviewed'),
      sql<number>`(select count(*) from moderation_items i where i.sample_id = s.id and i.verdict = 'disagree')::int`.as('disagreed'),
    ])
    .where('s.unit_id', '=', unitId)
    .$if(only?.sampleId !== undefined, (q) => q.where('s.id', '=', only!.sampleId!))
    .$if(only?.moderatorId !== undefined, (q) => q.where(sql<boolean>`s.moderator_ids @> ${JSON.stringify([only!.moderatorId])}::jsonb`))
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, moderator_ids: r.moderator_ids as number[], created_at: isoTimestamp(r.created_at) }));
}

/** A sample's items with the task's assessment as it is now: one statement. */
export async function itemRows(em: Em, sampleId: number, itemId?: number): Promise<ItemOut[]> {
  const rows = await db(em)
    .selectFrom('moderation_items as i')
    .innerJoin('tasks as t', 't.id', 'i.task_id')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('users as st', 'st.id', 'p.user_id')
    .innerJoin('users as a', 'a.id', 'i.assessor_id')
    .select([
      'i.id',
      'i.sample_id',
      'i.task_id',
      't.project_id',
      't.task_definition_id',
      sql<string>`st.first_name || ' ' || st.last_name`.as('student_name'),
      'i.assessor_id',
      sql<string>`a.first_name || ' ' || a.last_name`.as('assessor_name'),
      't.status',
      't.grade',
      't.quality_pts',
      'i.verdict',
      'i.comment',
      'i.reviewer_id',
      'i.reviewed_at',
    ])
    .where('i.sample_id', '=', sampleId)
    .$if(itemId !== undefined, (q) => q.where('i.id', '=', itemId!))
    .orderBy('a.last_name')
    .orderBy('i.assessor_id')
    .orderBy('i.id')
    .execute();
  return rows.map((r) => ({ ...r, reviewed_at: isoTimestamp(r.reviewed_at) }));
}

export interface DrawInput {
  task_definition_id: number;
  percent: number;
  moderator_ids?: number[];
}

/**
 * Draws ceil(percent%) of each assessor's completed, not yet sampled tasks of the definition, at
 * random (PostgreSQL's random(), per assessor), in one statement. The assessor of a task is the
 * assessor of its latest assessment (task_submissions). Drawing again for the same definition
 * samples only tasks no earlier sample holds; a draw that finds nothing is refused (400) and
 * leaves nothing behind. The definition's row is locked so two draws cannot interleave.
 */
export async function drawSample(em: Em, unitId: number, input: DrawInput, createdBy: number, now: Date): Promise<SampleOut> {
  const k = db(em);
  const definition = await k
    .selectFrom('task_definitions')
    .select('id')
    .where('id', '=', input.task_definition_id)
    .where('unit_id', '=', unitId)
    .forUpdate()
    .executeTakeFirst();
  if (!definition) throw badRequest('task_definition_id: is not a task definition of this unit');
  const moderators = await checkStaff(em, unitId, input.moderator_ids ?? [], 'moderator_ids');
  const sample = await k
    .insertInto('moderation_samples')
    .values({
      unit_id: unitId,
      task_definition_id: definition.id,
      percent: input.percent,
      moderator_ids: JSON.stringify(moderators) as unknown as number[],
      created_by_id: createdBy,
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const drawn = await sql<{ id: number }>`
    insert into moderation_items (sample_id, task_id, assessor_id)
    select ${sample.id}::int, c.task_id, c.assessor_id from (
      select a.task_id, a.assessor_id,
             row_number() over (partition by a.assessor_id order by random()) as n,
             count(*) over (partition by a.assessor_id) as total
      from (
        select distinct on (s.task_id) s.task_id, s.assessor_id
        from task_submissions s
        join tasks t on t.id = s.task_id
        join projects p on p.id = t.project_id
        where t.task_definition_id = ${definition.id} and p.unit_id = ${unitId} and p.enrolled and t.status = ${COMPLETE}
          and s.assessor_id is not null and s.assessed_at is not null
          and not exists (select 1 from moderation_items mi where mi.task_id = t.id)
        order by s.task_id, s.assessed_at desc, s.id desc
      ) a
    ) c
    where c.n <= ceil(c.total * ${input.percent}::numeric / 100)
    returning id`.execute(k);
  // The transaction rolls back, so the empty sample row goes too.
  if (drawn.rows.length === 0) throw badRequest('No completed assessments of this task definition are left to sample');
  return (await sampleRows(em, unitId, { sampleId: sample.id }))[0]!;
}

/** One sample of the unit (404 otherwise), with whether this viewer may review it. */
export async function findSample(em: Em, unitId: number, sampleId: number): Promise<{ id: number; moderator_ids: number[] }> {
  const row = await db(em)
    .selectFrom('moderation_samples')
    .select(['id', 'moderator_ids'])
    .where('id', '=', sampleId)
    .where('unit_id', '=', unitId)
    .executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_SAMPLE);
  return { id: row.id, moderator_ids: row.moderator_ids as number[] };
}

/** A convenor (oversees the unit's marking) or a moderator the sample names. */
export function mayModerate(sample: { moderator_ids: number[] }, viewer: { id: number; oversees: boolean }): boolean {
  return viewer.oversees || sample.moderator_ids.includes(viewer.id);
}

export interface ReviewInput {
  verdict: ModerationVerdict;
  comment?: string;
}

/**
 * Records a moderator's verdict on one sampled assessment (again replaces it). A disagreement
 * needs a comment; nobody moderates their own assessment.
 */
export async function reviewItem(
  em: Em,
  unitId: number,
  ids: { sampleId: number; itemId: number },
  reviewer: { id: number; oversees: boolean },
  input: ReviewInput,
  now: Date,
): Promise<ItemOut> {
  const sample = await findSample(em, unitId, ids.sampleId);
  if (!mayModerate(sample, reviewer)) throw forbidden('Only a convenor or a moderator named on this sample may review it');
  const k = db(em);
  const item = await k
    .selectFrom('moderation_items')
    .select(['id', 'assessor_id'])
    .where('id', '=', ids.itemId)
    .where('sample_id', '=', sample.id)
    .forUpdate()
    .executeTakeFirst();
  if (!item) throw notFound('Unable to find requested Moderation item');
  if (item.assessor_id === reviewer.id) throw forbidden('You cannot moderate your own assessment');
  const comment = input.comment?.trim() || null;
  if (input.verdict === 'disagree' && comment === null) throw badRequest('comment: is required when you disagree');
  await k
    .updateTable('moderation_items')
    .set({ verdict: input.verdict, comment, reviewer_id: reviewer.id, reviewed_at: now.toISOString() })
    .where('id', '=', item.id)
    .execute();
  return (await itemRows(em, sample.id, item.id))[0]!;
}

/** Per tutor per definition, and per tutor over all: sampled, reviewed, disagreed, rate. One statement. */
export async function moderationReport(em: Em, unitId: number): Promise<{ by_definition: ReportRow[]; by_tutor: ReportRow[] }> {
  const rows = await db(em)
    .selectFrom('moderation_items as i')
    .innerJoin('moderation_samples as s', 's.id', 'i.sample_id')
    .innerJoin('users as u', 'u.id', 'i.assessor_id')
    .select([
      'i.assessor_id as tutor_id',
      sql<string>`u.first_name || ' ' || u.last_name`.as('tutor_name'),
      's.task_definition_id',
      sql<number>`count(*)::int`.as('sampled'),
      sql<number>`count(i.verdict)::int`.as('reviewed'),
      sql<number>`(count(*) filter (where i.verdict = 'disagree'))::int`.as('disagreed'),
    ])
    .where('s.unit_id', '=', unitId)
    .groupBy(['i.assessor_id', 'u.first_name', 'u.last_name', 's.task_definition_id'])
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('i.assessor_id')
    .orderBy('s.task_definition_id')
    .execute();
  const rate = (r: { reviewed: number; disagreed: number }) => (r.reviewed === 0 ? null : r.disagreed / r.reviewed);
  const by_definition = rows.map((r) => ({ ...r, rate: rate(r) }));
  const tutors = new Map<number, ReportRow>();
  for (const r of by_definition) {
    const t = tutors.get(r.tutor_id) ?? {
      tutor_id: r.tutor_id,
      tutor_name: r.tutor_name,
      task_definition_id: null,
      sampled: 0,
      reviewed: 0,
      disagreed: 0,
      rate: null,
    };
    t.sampled += r.sampled;
    t.reviewed += r.reviewed;
    t.disagreed += r.disagreed;
    tutors.set(r.tutor_id, t);
  }
  const by_tutor = [...tutors.values()].map((t) => ({ ...t, rate: rate(t) }));
  return { by_definition, by_tutor };
}
