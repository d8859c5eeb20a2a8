import { MAX_EVIDENCE_BYTES } from '../../../domain/engagements.ts';
import { createEngagement as create } from '../../../operations/projects/engagements/save-engagement.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { createEngagementInput, engagementOut } from './schemas.ts';

export const createEngagement = projectMutation(createEngagementInput, {
  action: 'write_engagements',
  orUnit: 'write_engagements',
  refused: 'Only staff of the unit may record engagements',
  field: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/engagements', 'Check-ins', "Record a student's engagement, with a URL or a file as evidence", {
      description:
        'Staff of the unit or an Admin; JSON, form or multipart. Evidence is `evidence_url` (http/https) or `attachment` (an image, re-encoded, or a PDF; under 30 MB), never both. See docs/check-ins.md.',
      rest: { upload: { maxBytes: MAX_EVIDENCE_BYTES } },
    }),
  )
  .output(engagementOut)
  .mutation(({ ctx, input }) =>
    create(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit, now: ctx.clock.now() }, ctx.project.id, ctx.user.id, input),
  );
