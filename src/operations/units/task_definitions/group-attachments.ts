// A definition's group attachments: the Word documents of its task resources registered with the
// similarity service. Listing them, uploading one again, and removing one (with its remote copy).
import { z } from 'zod';
import { SimcheckAction, SimcheckGroupAttachment, type ISimcheckGroupAttachment } from '../../../../schema/index.ts';
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import type { JobQueue } from '../../../db/jobs.ts';
import { requireSimcheckEnabled } from '../../similarity/enabled.ts';
import { createAction } from '../../similarity/simcheck-actions.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { findTaskDefinition } from './find-task-definition.ts';

/** The spec's `id, name, status`, and the original's `group_attachment_id` and `filename`. */
export const groupAttachmentOut = z.object({
  id: z.number().int(),
  name: z.string(),
  filename: z.string(),
  group_attachment_id: z.string().nullable(),
  status: z.string(),
});
export type GroupAttachmentOut = z.infer<typeof groupAttachmentOut>;

interface Services {
  em: Em;
  jobs: JobQueue;
  config: Pick<Config, 'simcheckEnabled'>;
}

type Unit = { id: number; code: string };

export function toGroupAttachment(a: ISimcheckGroupAttachment): GroupAttachmentOut {
  return { id: a.id, name: a.filename, filename: a.filename, group_attachment_id: a.remoteId ?? null, status: a.status };
}

export async function findGroupAttachment(em: Em, definitionId: number, id: number): Promise<ISimcheckGroupAttachment> {
  const found = await em.findOne(SimcheckGroupAttachment, { id, taskDefinition: definitionId });
  if (!found) throw notFound('Unable to find requested Simcheck Group Attachment');
  return found;
}

/** The group attachments of definition `definitionId` of unit `unitId`, oldest first. */
export async function listGroupAttachments(em: Em, unitId: number, definitionId: number): Promise<GroupAttachmentOut[]> {
  const definition = await findTaskDefinition(em, unitId, definitionId);
  const rows = await em.find(SimcheckGroupAttachment, { taskDefinition: definition.id }, { orderBy: { id: 'asc' } });
  return rows.map(toGroupAttachment);
}

/** `action=upload`: the attachment's upload is queued again (its earlier action retried, or a new one). */
export async function retryGroupAttachment(
  services: Services,
  unit: Unit,
  input: { task_def_id: number; id: number; action: string },
): Promise<GroupAttachmentOut> {
  const { em, jobs } = services;
  const definition = await findTaskDefinition(em, unit.id, input.task_def_id);
  const attachment = await findGroupAttachment(em, definition.id, input.id);
  if (input.action !== 'upload') throw badRequest('Invalid action');
  requireSimcheckEnabled(services.config);
  attachment.status = 'has_id';
  let [action] = await em.find(SimcheckAction, { action: 'upload_task_resources', params: { attachmentId: attachment.id } });
  if (action) Object.assign(action, { retry: true, complete: false });
  else
    action = await createAction(em, {
      action: 'upload_task_resources',
      unit: unit.id,
      description: `Upload assessment resources ${attachment.filename} for ${definition.abbreviation} in ${unit.code}`,
      params: { attachmentId: attachment.id },
    });
  await em.flush();
  await jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
  return toGroupAttachment(attachment);
}

/** Removes the attachment, and queues removing its copy from the similarity service when it has one. */
export async function deleteGroupAttachment(services: Services, unit: Unit, input: { task_def_id: number; id: number }): Promise<true> {
  const { em, jobs } = services;
  const definition = await findTaskDefinition(em, unit.id, input.task_def_id);
  const attachment = await findGroupAttachment(em, definition.id, input.id);
  requireSimcheckEnabled(services.config);
  if (attachment.remoteId && definition.simcheckGroupId) {
    const action = await createAction(em, {
      action: 'delete_group_attachment',
      unit: unit.id,
      description: `Delete group attachment ${attachment.filename} in ${definition.abbreviation} for ${unit.code}`,
      params: { groupId: definition.simcheckGroupId, remoteId: attachment.remoteId },
    });
    await jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
  }
  em.remove(attachment);
  await em.flush();
  return true;
}
