import { z } from 'zod';
import { exportUsersCsv } from '../../../operations/csv/users/export-users.ts';
import { fileResult } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';

export const download = systemQuery(z.object({}).optional(), { action: 'download_system_csv', refused: 'Not authorised to download CSV of all users' })
  .meta(
    route('GET', '/api/csv/users', 'Users', 'Every user as CSV (Admin)', {
      description:
        '`users.csv`: `email, first_name, last_name, username, nickname, role, student_id`, ordered by id. No password column. The same ' +
        'format the upload reads.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(({ ctx }) => exportUsersCsv(ctx.em));
