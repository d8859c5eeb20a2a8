// The platform's course (context) and link (resource_link) a launch came from, kept current: every
// launch refreshes the title, label, deployment and the service URLs roster sync (NRPS) and grade
// passback (AGS) use that it carries, so a platform that moves them is followed.
import { LtiContext, LtiResourceLink, TaskDefinition, type ILtiContext, type ILtiPlatform, type ILtiResourceLink } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import type { LaunchClaims } from './launch-claims.ts';

/** The context row, or null when the platform's course is not known here yet. */
export function findContext(em: Em, platform: ILtiPlatform, claims: LaunchClaims): Promise<ILtiContext | null> {
  return em.findOne(LtiContext, { platform, contextId: claims.context.id });
}

/** Creates or refreshes the context row; `unitId` links it (only set when given). */
export async function upsertContext(em: Em, platform: ILtiPlatform, claims: LaunchClaims, unitId?: number): Promise<ILtiContext> {
  const fields = {
    deploymentId: claims.deploymentId,
    title: claims.context.title,
    label: claims.context.label,
    // A launch without the NRPS or AGS claim keeps what earlier launches stored: some platforms send
    // them only with resource link launches, and a deep-linking launch must not switch off the
    // course's roster sync and grade passback.
    ...(claims.membershipsUrl && { membershipsUrl: claims.membershipsUrl }),
    ...(claims.ags && { lineitemsUrl: claims.ags.lineitems ?? null, agsScopes: claims.ags.scope ?? [] }),
    ...(unitId !== undefined && { unit: unitId }),
  };
  const context = (await findContext(em, platform, claims)) ?? em.create(LtiContext, { platform, contextId: claims.context.id, ...fields });
  em.assign(context, fields);
  await em.flush();
  return context;
}

/**
 * Creates or refreshes the resource link row. The custom parameter `task_definition_id` (deep linking
 * puts it on the links it makes) sets the task it opens, when it names a task definition of the
 * linked unit; anything else leaves the link's task as it was.
 */
export async function upsertResourceLink(em: Em, context: ILtiContext, unitId: number, claims: LaunchClaims): Promise<ILtiResourceLink | null> {
  if (!claims.resourceLink) return null;
  const named = claims.custom.task_definition_id;
  const taskDefinition = named && /^\d{1,9}$/.test(named) ? await em.findOne(TaskDefinition, { id: Number(named), unit: unitId }) : null;
  const fields = {
    title: claims.resourceLink.title,
    ...(claims.ags?.lineitem && { lineitemUrl: claims.ags.lineitem }),
    ...(taskDefinition && { taskDefinition }),
  };
  const link =
    (await em.findOne(LtiResourceLink, { context, resourceLinkId: claims.resourceLink.id })) ??
    em.create(LtiResourceLink, { context, resourceLinkId: claims.resourceLink.id, ...fields });
  em.assign(link, fields);
  await em.flush();
  return link;
}
