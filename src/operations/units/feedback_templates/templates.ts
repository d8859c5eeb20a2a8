// A unit's feedback template groups and templates (docs/marking/templates.md): listed with their
// usage counts in two statements whatever their number, and changed by the unit's convenors.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { unknownPlaceholders } from '../../../domain/feedback-templates.ts';
import { notFound } from '../../../lib/errors.ts';

export const UNKNOWN_GROUP = 'Unable to find requested Feedback template group';
export const UNKNOWN_TEMPLATE = 'Unable to find requested Feedback template';
export const UNKNOWN_DEFINITION = 'Unable to find requested Task definition';

export interface TemplateRow {
  id: number;
  group_id: number;
  title: string;
  text: string;
  suggested_status: TaskStatus | null;
  /** Placeholders in braces that are not filled in: they stay as typed in the comment. */
  unknown_placeholders: string[];
  usage_count: number;
}

export interface GroupRow {
  id: number;
  name: string;
  task_definition_id: number | null;
  templates: TemplateRow[];
}

/** A template's columns and how many times it was applied, for a query naming it `t`. */
const TEMPLATE_COLUMNS = [
  't.id',
  't.group_id',
  't.title',
  't.text',
  't.suggested_status',
  sql<number>`(select count(*)::int from feedback_template_uses u where u.template_id = t.id)`.as('usage_count'),
] as const;

/**
 * The unit's groups with their templates, in creation order. With a definition: the unit-wide
 * groups and that definition's only (what a tutor marking it chooses from).
 */
export async function listTemplateGroups(em: Em, unitId: number, taskDefinitionId?: number): Promise<GroupRow[]> {
  let groupsQuery = db(em).selectFrom('feedback_template_groups').select(['id', 'name', 'task_definition_id']).where('unit_id', '=', unitId).orderBy('id');
  if (taskDefinitionId !== undefined) {
    groupsQuery = groupsQuery.where((w) => w.or([w('task_definition_id', 'is', null), w('task_definition_id', '=', taskDefinitionId)]));
  }
  const groups = await groupsQuery.execute();
  if (groups.length === 0) return [];
  const templates = await db(em)
    .selectFrom('feedback_templates as t')
    .select(TEMPLATE_COLUMNS)
    .where(
      't.group_id',
      'in',
      groups.map((g) => g.id),
    )
    .orderBy('t.id')
    .execute();
  const byGroup = new Map<number, GroupRow>(groups.map((g) => [g.id, { ...g, templates: [] }]));
  for (const t of templates) byGroup.get(t.group_id)?.templates.push({ ...t, unknown_placeholders: unknownPlaceholders(t.text) });
  return [...byGroup.values()];
}

export async function templateGroup(em: Em, unitId: number, id: number): Promise<GroupRow> {
  const [group] = (await listTemplateGroups(em, unitId)).filter((g) => g.id === id);
  if (!group) throw notFound(UNKNOWN_GROUP);
  return group;
}

async function assertDefinitionOfUnit(em: Em, unitId: number, taskDefinitionId: number | null | undefined): Promise<void> {
  if (taskDefinitionId === null || taskDefinitionId === undefined) return;
  const found = await db(em).selectFrom('task_definitions').select('id').where('id', '=', taskDefinitionId).where('unit_id', '=', unitId).executeTakeFirst();
  if (!found) throw notFound(UNKNOWN_DEFINITION);
}

async function assertGroupOfUnit(em: Em, unitId: number, groupId: number): Promise<void> {
  const found = await db(em).selectFrom('feedback_template_groups').select('id').where('id', '=', groupId).where('unit_id', '=', unitId).executeTakeFirst();
  if (!found) throw notFound(UNKNOWN_GROUP);
}

/** The fields among `keys` that were given: a create writes them all, an update leaves the others as they are. */
function given<F extends object, K extends keyof F>(fields: F, keys: readonly K[]): Pick<F, K> {
  return Object.fromEntries(keys.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]])) as Pick<F, K>;
}

export interface GroupFields {
  name: string;
  /** A definition's own group; none (null): the unit-wide group. */
  task_definition_id?: number | null;
}

/** What a group's create and update write: the fields given, once a definition among them is found to be the unit's. */
async function checkedGroupColumns<F extends Partial<GroupFields>>(em: Em, unitId: number, fields: F) {
  await assertDefinitionOfUnit(em, unitId, fields.task_definition_id);
  return given(fields, ['name', 'task_definition_id'] as const);
}

export async function createTemplateGroup(em: Em, unitId: number, fields: GroupFields, now: Date): Promise<GroupRow> {
  const at = now.toISOString();
  const row = await db(em)
    .insertInto('feedback_template_groups')
    .values({ ...(await checkedGroupColumns(em, unitId, fields)), unit_id: unitId, created_at: at, updated_at: at })
    .returning(['id', 'name', 'task_definition_id'])
    .executeTakeFirstOrThrow();
  return { ...row, templates: [] };
}

export async function updateTemplateGroup(em: Em, unitId: number, id: number, fields: Partial<GroupFields>, now: Date): Promise<GroupRow> {
  await assertGroupOfUnit(em, unitId, id);
  await db(em)
    .updateTable('feedback_template_groups')
    .set({ ...(await checkedGroupColumns(em, unitId, fields)), updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
  return templateGroup(em, unitId, id);
}

/** The group and its templates (their uses go with them; the comments stay). */
export async function deleteTemplateGroup(em: Em, unitId: number, id: number): Promise<void> {
  const deleted = await db(em).deleteFrom('feedback_template_groups').where('id', '=', id).where('unit_id', '=', unitId).returning('id').execute();
  if (deleted.length === 0) throw notFound(UNKNOWN_GROUP);
}

export interface TemplateFields {
  group_id: number;
  title: string;
  text: string;
  suggested_status?: TaskStatus | null;
}

async function templateRow(em: Em, unitId: number, id: number): Promise<TemplateRow> {
  const row = await db(em)
    .selectFrom('feedback_templates as t')
    .innerJoin('feedback_template_groups as g', 'g.id', 't.group_id')
    .select(TEMPLATE_COLUMNS)
    .where('t.id', '=', id)
    .where('g.unit_id', '=', unitId)
    .executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_TEMPLATE);
  return { ...row, unknown_placeholders: unknownPlaceholders(row.text) };
}

/** What a template's create and update write: the fields given, once a group among them is found to be the unit's. */
async function checkedTemplateColumns<F extends Partial<TemplateFields>>(em: Em, unitId: number, fields: F) {
  if (fields.group_id !== undefined) await assertGroupOfUnit(em, unitId, fields.group_id);
  return given(fields, ['group_id', 'title', 'text', 'suggested_status'] as const);
}

export async function createTemplate(em: Em, unitId: number, fields: TemplateFields, now: Date): Promise<TemplateRow> {
  const at = now.toISOString();
  const row = await db(em)
    .insertInto('feedback_templates')
    .values({ ...(await checkedTemplateColumns(em, unitId, fields)), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return templateRow(em, unitId, row.id);
}

export async function updateTemplate(em: Em, unitId: number, id: number, fields: Partial<TemplateFields>, now: Date): Promise<TemplateRow> {
  await templateRow(em, unitId, id);
  await db(em)
    .updateTable('feedback_templates')
    .set({ ...(await checkedTemplateColumns(em, unitId, fields)), updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
  return templateRow(em, unitId, id);
}

export async function deleteTemplate(em: Em, unitId: number, id: number): Promise<void> {
  await templateRow(em, unitId, id);
  await db(em).deleteFrom('feedback_templates').where('id', '=', id).execute();
}
