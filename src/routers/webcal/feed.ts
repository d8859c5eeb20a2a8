import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { renderCalendar } from '../../domain/webcal-calendar.ts';
import { feedEvents } from '../../domain/webcal-events.ts';
import { toDay } from '../../domain/dates.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { notFound } from '../../lib/errors.ts';
import { fileResult, type FileResult } from '../../lib/files.ts';
import { loadFeed } from '../../operations/webcal/load-feed.ts';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

export const webcalFeed = publicProcedure
  .meta(
    route('GET', '/api/webcal/{guid}', 'Webcal', "A student's task calendar (iCalendar)", {
      protect: false,
      description:
        'Public: the guid is the secret. All-day events on the due day of each task of the current units the owner is enrolled in ' +
        '(up to their target grade, less excluded units), start events when asked, reminders as alarms. ' +
        'An unknown, changed or disabled guid answers 404.',
      rest: { file: true },
    }),
  )
  .input(z.object({ guid: z.string() }))
  .output(fileResult().meta({ contentMediaType: 'text/calendar' }))
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const now = ctx.clock.now();
    const feed = await loadFeed(ctx.em, input.guid, toDay(now));
    if (!feed) throw notFound('Calendar not found');
    const text = renderCalendar(feedEvents(feed.definitions, feed.settings), ctx.config.externalName, now);
    return { filename: 'calendar.ics', contentType: CALENDAR_TYPE, data: Buffer.from(text, 'utf8'), asAttachment: false };
  });
