// DELETE /api/projects/{project_id}/engagements/{id} (docs/check-ins.md): its author within an
// hour, the unit's convenor within a week (src/domain/engagements.ts deleteRefusal). Its replies go
// with it; its file once the deletion is committed.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { deleteRefusal } from '../../../domain/engagements.ts';
import { forbidden } from '../../../lib/errors.ts';
import type { Storage } from '../../../storage/index.ts';
import { findEngagement } from './engagement-rows.ts';

export async function deleteEngagement(
  em: Em,
  services: { storage: Storage; afterCommit: (fn: () => void) => void; now: Date },
  projectId: number,
  engagementId: number,
  caller: { id: number; mayDeleteOthers: boolean },
): Promise<void> {
  const engagement = await findEngagement(em, projectId, engagementId, true);
  const refusal = deleteRefusal(
    { createdAt: engagement.created_at, isAuthor: engagement.author_id === caller.id, mayDeleteOthers: caller.mayDeleteOthers },
    services.now,
  );
  if (refusal) throw forbidden(refusal);
  await db(em).deleteFrom('engagements').where('id', '=', engagement.id).execute();
  const path = engagement.attachment_path;
  if (path) services.afterCommit(() => void services.storage.delete(path).catch(() => undefined));
}
