import { engagementAttachment } from '../../../operations/projects/engagements/engagement-attachment.ts';
import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { projectQuery } from '../../../trpc/scopes/index.ts';
import { engagementAttachmentInput } from './schemas.ts';

export const downloadEngagementAttachment = projectQuery(engagementAttachmentInput, {
  action: 'read_engagements',
  orUnit: 'write_engagements',
  refused: 'Not authorised to see the engagements of this project',
  field: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/engagements/{id}/attachment', 'Check-ins', "A check-in's evidence file", {
      description: 'The image as re-encoded or the PDF, with its type; `as_attachment=true` saves it as `engagement-<id><ext>`. 404 when it has none.',
      rest: { file: true },
    }),
  )
  .output(fileResult())
  .query(({ ctx, input }) => engagementAttachment(ctx.em, ctx.storage, ctx.project.id, input.id, input.as_attachment));
