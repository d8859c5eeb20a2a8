import { z } from 'zod';
import { importUsers } from '../../../operations/csv/users/import-users.ts';
import { uploadedFile } from '../../../lib/files.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { readCsv } from '../../../operations/csv/read-csv.ts';
import { importResultOut } from '../units/schemas.ts';

export const upload = systemMutation(z.object({ file: uploadedFile() }), { action: 'upload_csv', refused: 'Not authorised to upload CSV of users' })
  .meta(
    route('POST', '/api/csv/users', 'Users', 'Create users from a CSV (Admin any role; Convenor Student or Tutor)', {
      description:
        'Multipart `file` with the header `email, first_name, last_name, username, nickname, role, student_id` (and an optional `password`). ' +
        'Answers `{success, errors, ignored}`, each a list of `{row, message}`. See docs/api/users.md.',
      rest: { upload: {} },
    }),
  )
  .output(importResultOut.extend({ without_password: z.array(z.string()).optional() }))
  .mutation(async ({ ctx, input }) => importUsers(ctx.em, ctx.user, await readCsv(input.file), { mail: Boolean(ctx.config.mail.smtpUrl) }));
