import { z } from 'zod';
import { canInProject, roleInProject } from '../../policy/index.ts';
import { serveLive } from '../../trpc/live.ts';
import { projectQuery } from '../../trpc/scopes/index.ts';
import { userIdOf } from '../../trpc/scopes/project.ts';

const input = z.object({
  id: z.coerce.number().int(),
  /** Sent back by the client when it reconnects (tRPC's httpSubscriptionLink does so itself). */
  lastEventId: z.string().nullish(),
});

/**
 * Live changes to a project's tasks (docs/marking/live-updates.md): status, feedback comments, a
 * PDF ready, an assessment result. Ids only: the client re-reads the task. Whoever may read the
 * project: its student, or staff of its unit; so a student hears of no one else's tasks.
 */
export const taskChanges = projectQuery(input, { action: 'get', refused: (id) => `Couldn't find Project with id=${id}` }).subscription(
  ({ ctx, input, signal }) => {
    const owner = { userId: userIdOf(ctx.project), unitId: ctx.unit.id };
    return serveLive({
      ctx,
      filter: { projectId: ctx.project.id },
      lastEventId: input.lastEventId,
      signal,
      allowed: async (em, user) => canInProject(await roleInProject(em, user, owner), 'get', ctx.unit),
    });
  },
);
