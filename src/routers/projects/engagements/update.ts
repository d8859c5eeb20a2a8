import { MAX_EVIDENCE_BYTES } from '../../../domain/engagements.ts';
import { updateEngagement as update } from '../../../operations/projects/engagements/save-engagement.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { engagementOut, updateEngagementInput } from './schemas.ts';

export const updateEngagement = projectMutation(updateEngagementInput, {
  action: 'write_engagements',
  orUnit: 'write_engagements',
  refused: 'Only staff of the unit may edit engagements',
  field: 'project_id',
})
  .meta(
    route('PUT', '/api/projects/{project_id}/engagements/{id}', 'Check-ins', 'Edit a check-in, replace or remove its evidence', {
      description: 'Its author only (else 403). Fields left out stay; new evidence replaces the old; `remove_evidence` drops it. See docs/check-ins.md.',
      rest: { upload: { maxBytes: MAX_EVIDENCE_BYTES } },
    }),
  )
  .output(engagementOut)
  .mutation(({ ctx, input }) =>
    update(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit, now: ctx.clock.now() }, ctx.project.id, input.id, ctx.user.id, input),
  );
