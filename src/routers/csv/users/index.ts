// /api/csv/users: the users CSV (beyond-spec.md §5; behaviour.md §9.3).
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { router } from '../../../trpc/core.ts';
import { csvDownload, fileResult, uploadedFile } from '../../../trpc/files.ts';
import { readCsv } from '../../../operations/csv/read-csv.ts';
import { importResultOut } from '../units/schemas.ts';
import { importUsers, USER_CSV_COLUMNS } from './import.ts';
import { systemMutation, systemQuery } from '../../../trpc/scopes/index.ts';

const download = systemQuery(z.object({}).optional(), { action: 'download_system_csv', refused: 'Not authorised to download CSV of all users' })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/csv/users',
      tags: ['Users'],
      summary: 'Every user as CSV (Admin)',
      description:
        '`users.csv`: `email, first_name, last_name, username, nickname, role, student_id`, ordered by id. No password column. The same format the upload reads.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => {
    const users = await db(ctx.em)
      .selectFrom('users')
      .select(['email', 'first_name', 'last_name', 'username', 'nickname', 'system_role', 'student_id'])
      .orderBy('id')
      .execute();
    const rows = users.map((u) => [u.email, u.first_name, u.last_name, u.username, u.nickname, u.system_role, u.student_id]);
    return csvDownload('users.csv', writeCsv(USER_CSV_COLUMNS, rows), 'text/csv');
  });

const upload = systemMutation(z.object({ file: uploadedFile() }), { action: 'upload_csv', refused: 'Not authorised to upload CSV of users' })
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/csv/users',
      tags: ['Users'],
      summary: 'Create users from a CSV (Admin any role; Convenor Student or Tutor)',
      description:
        'Multipart `file` with the header `email, first_name, last_name, username, nickname, role, student_id` (matched case-insensitively; an optional `password` column). Rows naming an existing username are ignored; blank username, email, role or first name, an invalid email, an unknown role or one the caller may not grant are errors. Users created without a password cannot sign in until they set one: each is e-mailed a one-time link (valid 7 days) to `/invitations/{token}` when a mail server is configured (SMTP_URL); otherwise the answer lists them in `without_password`. Answers `{success, errors, ignored}`, each a list of `{row, message}`.',
    },
    rest: { upload: {} },
  })
  .output(importResultOut.extend({ without_password: z.array(z.string()).optional() }))
  .mutation(async ({ ctx, input }) => {
    return importUsers(ctx.em, ctx.user, await readCsv(input.file), { mail: Boolean(ctx.config.mail.smtpUrl) });
  });

export const userCsvRouter = router({ download, upload });
