// A unit's gradebook columns in its LMS courses (LTI AGS line items), per task definition: those that
// came with a resource link (deep linking, or the launch's `lineitem` claim) and those the tool found
// or created through the course's `lineitems` endpoint for units that were not deep-linked.
import { sql } from 'kysely';
import { LtiPlatform } from '../../../../../schema/index.ts';
import { LtiPlatformError, ltiFetch } from '../../../../adapters/lti-http.ts';
import type { Config } from '../../../../config.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { lineItemResourceId, SCORE_MAXIMUM } from '../../../../domain/lti-scores.ts';
import type { Clock } from '../../../../lib/clock.ts';
import { badRequest, notFound, serviceUnavailable } from '../../../../lib/errors.ts';
import { ltiSecret } from '../../configured.ts';
import { queueScorePassbacks } from '../../score-passback.ts';
import { forgetServiceToken, LTI_SCOPES, serviceToken } from '../../service-token.ts';

export const LINE_ITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
export const LINE_ITEM_CONTAINER_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';

export interface LineItemOut {
  context_id: number;
  /** The course's title as its last launch named it. */
  course: string | null;
  lineitem_url: string;
  /** Where the tool knows it from. */
  source: 'resource_link' | 'found' | 'created';
  /** The course's launches granted the score scope: scores are passed back. */
  passback: boolean;
}

export interface TaskDefinitionLineItems {
  task_definition_id: number;
  abbreviation: string;
  name: string;
  line_items: LineItemOut[];
}

/** GET /api/lti/units/{unit_id}/line_items: every task definition of the unit with its line items. */
export async function unitLineItems(em: Em, config: Pick<Config, 'lti'>, unitId: number): Promise<TaskDefinitionLineItems[]> {
  ltiSecret(config);
  return listLineItems(em, unitId);
}

/** Every task definition of the unit (or the one named) with its line items, in one statement. */
export async function listLineItems(em: Em, unitId: number, taskDefinitionId?: number): Promise<TaskDefinitionLineItems[]> {
  const only = taskDefinitionId === undefined ? sql`true` : sql`d.id = ${taskDefinitionId}`;
  const result = await sql<TaskDefinitionLineItems>`
    select d.id as task_definition_id, d.abbreviation, d.name,
           coalesce((
             select json_agg(json_build_object('context_id', c.id, 'course', c.title, 'lineitem_url', x.lineitem_url, 'source', x.source,
                                               'passback', ${LTI_SCOPES.score} = any(c.ags_scopes))
                             order by c.id, x.source, x.lineitem_url)
               from (select rl.context_id, rl.lineitem_url, 'resource_link' as source from lti_resource_links rl
                      where rl.task_definition_id = d.id and rl.lineitem_url is not null
                     union
                     select li.context_id, li.lineitem_url, case when li.created_by_tool then 'created' else 'found' end from lti_line_items li
                      where li.task_definition_id = d.id) x
               join lti_contexts c on c.id = x.context_id and c.unit_id = d.unit_id
           ), '[]'::json) as line_items
      from task_definitions d
     where d.unit_id = ${unitId} and ${only}
     order by d.target_date, d.abbreviation, d.id`.execute(db(em));
  return result.rows;
}

interface Course {
  id: number;
  title: string | null;
  lineitems_url: string;
  ags_scopes: string[];
  platform_id: number;
}

/**
 * The task definition's line item in each linked course of the unit that offers AGS: kept when it has
 * one; otherwise found by its resource id (`task-definition-<id>`) through the course's `lineitems`
 * endpoint, or created there (out of 100, labelled with the definition's name, tagged with its
 * abbreviation). Then the definition's tasks already under way are queued for passback, so the new
 * column fills. 404 unknown definition, 400 another unit's or a unit without such a course.
 */
export async function findOrCreateLineItems(
  em: Em,
  services: { config: Pick<Config, 'lti'>; clock: Clock },
  unitId: number,
  taskDefinitionId: number,
): Promise<TaskDefinitionLineItems> {
  ltiSecret(services.config);
  const k = db(em);
  const definition = await k
    .selectFrom('task_definitions')
    .select(['id', 'unit_id', 'name', 'abbreviation'])
    .where('id', '=', taskDefinitionId)
    .executeTakeFirst();
  if (!definition) throw notFound('Unable to find requested TaskDefinition');
  if (definition.unit_id !== unitId) throw badRequest(`Task definition ${taskDefinitionId} is not in this unit.`);
  const courses = (
    await sql<Course>`
      select c.id, c.title, c.lineitems_url, c.ags_scopes, c.platform_id from lti_contexts c
       where c.unit_id = ${unitId} and c.lineitems_url is not null order by c.id`.execute(k)
  ).rows;
  if (courses.length === 0) {
    throw badRequest('This unit is not linked to an LMS course that offers grade passback: an Instructor launches the tool from the course first.');
  }
  const [current] = await listLineItems(em, unitId, taskDefinitionId);
  const linked = new Set(current.line_items.map((item) => item.context_id));
  for (const course of courses.filter((c) => !linked.has(c.id))) {
    const found = await lineItemAt(em, services, course, definition);
    await k
      .insertInto('lti_line_items')
      .values({
        context_id: course.id,
        task_definition_id: definition.id,
        lineitem_url: found.url,
        resource_id: lineItemResourceId(definition.id),
        label: definition.name,
        created_by_tool: found.created,
        created_at: services.clock.now().toISOString(),
        updated_at: services.clock.now().toISOString(),
      })
      .onConflict((oc) =>
        oc.columns(['context_id', 'task_definition_id']).doUpdateSet({ lineitem_url: found.url, updated_at: services.clock.now().toISOString() }),
      )
      .execute();
  }
  if (linked.size < courses.length) await queueScorePassbacks(em, { taskDefinitionId: definition.id }, services.clock.now());
  const [after] = await listLineItems(em, unitId, taskDefinitionId);
  return after;
}

const made = (course: Course) => `the line item course ${course.title ?? course.id}'s LMS named`;

/** A line item's URL: scores are posted there with the platform's token, so it must be an http(s) URL that fits its column. */
function checkedUrl(id: string, what: string): string {
  let ok = false;
  try {
    ok = ['https:', 'http:'].includes(new URL(id).protocol) && id.length <= 2048;
  } catch {}
  if (!ok) throw new LtiPlatformError(200, `${what} is not an http(s) URL of at most 2048 characters`);
  return id;
}

/** The course's line item for the definition: the platform's, found by resource id, or one made now. */
async function lineItemAt(
  em: Em,
  services: { config: Pick<Config, 'lti'>; clock: Clock },
  course: Course,
  definition: { id: number; name: string; abbreviation: string },
): Promise<{ url: string; created: boolean }> {
  const mayCreate = course.ags_scopes.includes(LTI_SCOPES.lineItem);
  if (!mayCreate && !course.ags_scopes.includes(LTI_SCOPES.lineItemReadOnly)) {
    throw badRequest(`The LMS did not grant this tool the line item scope in course ${course.title ?? course.id}.`);
  }
  const scopes = [mayCreate ? LTI_SCOPES.lineItem : LTI_SCOPES.lineItemReadOnly];
  const platform = await em.findOneOrFail(LtiPlatform, { id: course.platform_id });
  const resourceId = lineItemResourceId(definition.id);
  try {
    // On a connection of its own: the tool's first key, made on first need, must be committed before
    // the platform fetches the tool's JWKS to check the assertion, or that fetch waits on this transaction.
    const token = await serviceToken(em.fork(), services.config, services.clock, platform, scopes);
    const search = new URL(course.lineitems_url);
    search.searchParams.set('resource_id', resourceId);
    const { json } = await ltiFetch(search.toString(), { bearer: token, accept: LINE_ITEM_CONTAINER_MEDIA_TYPE });
    // The filter is the platform's to apply; checked again here in case it returned more.
    const existing = Array.isArray(json) ? json.find((item) => item?.resourceId === resourceId && typeof item.id === 'string') : undefined;
    if (existing) return { url: checkedUrl(existing.id, made(course)), created: false };
    if (!mayCreate)
      throw badRequest(
        `Course ${course.title ?? course.id} has no line item for ${definition.abbreviation}, and the LMS did not allow this tool to create one.`,
      );
    const answer = await ltiFetch(course.lineitems_url, {
      method: 'POST',
      bearer: token,
      accept: LINE_ITEM_MEDIA_TYPE,
      body: {
        json: { scoreMaximum: SCORE_MAXIMUM, label: definition.name, resourceId, tag: definition.abbreviation },
        contentType: LINE_ITEM_MEDIA_TYPE,
      },
    });
    const id = (answer.json as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || id === '') throw new LtiPlatformError(answer.status, `POST ${course.lineitems_url}: the answer has no line item id`);
    return { url: checkedUrl(id, made(course)), created: true };
  } catch (error) {
    if (!(error instanceof LtiPlatformError)) throw error;
    if (error.status === 401) forgetServiceToken(platform, scopes);
    if (error.status === 0 || error.status >= 500 || error.status < 400)
      throw serviceUnavailable(`The LMS did not answer as expected: ${error.message}`, error);
    throw badRequest(`The LMS refused: ${error.message}`);
  }
}
