// How engagements are answered (docs/check-ins.md): with their authors' names and every reply,
// all in one statement whatever their number (the replies are a JSON array PostgreSQL builds).
import { sql } from 'kysely';
import { db, isoTimestamp } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';

export interface EngagementReplyOut {
  id: number;
  author_id: number;
  author_name: string;
  comment: string;
  created_at: string;
}

export interface EngagementOut {
  id: number;
  project_id: number;
  author_id: number;
  author_name: string;
  engagement_type: string;
  note: string;
  occurred_at: string;
  evidence_url: string | null;
  attachment_filename: string | null;
  attachment_content_type: string | null;
  attachment_bytes: number | null;
  created_at: string;
  updated_at: string;
  comments: EngagementReplyOut[];
}

export const UNKNOWN_ENGAGEMENT = 'Unable to find requested Engagement';

const fullName = (alias: string) => sql<string>`${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)}`;

/** The project's engagements (or one), latest first, with their replies oldest first: one statement. */
export async function engagementRows(em: Em, projectId: number, engagementId?: number): Promise<EngagementOut[]> {
  const rows = await db(em)
    .selectFrom('engagements as e')
    .innerJoin('users as a', 'a.id', 'e.author_id')
    .select([
      'e.id',
      'e.project_id',
      'e.author_id',
      fullName('a').as('author_name'),
      'e.engagement_type',
      'e.note',
      'e.occurred_at',
      'e.evidence_url',
      'e.attachment_filename',
      'e.attachment_content_type',
      'e.attachment_bytes',
      'e.created_at',
      'e.updated_at',
      sql<EngagementReplyOut[]>`coalesce((
        select json_agg(json_build_object('id', c.id, 'author_id', c.author_id, 'author_name', ca.first_name || ' ' || ca.last_name,
                                          'comment', c.comment, 'created_at', c.created_at) order by c.created_at, c.id)
        from engagement_comments c join users ca on ca.id = c.author_id where c.engagement_id = e.id), '[]')`.as('comments'),
    ])
    .where('e.project_id', '=', projectId)
    .$if(engagementId !== undefined, (q) => q.where('e.id', '=', engagementId!))
    .orderBy('e.occurred_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
  return rows.map((r) => ({
    ...r,
    attachment_bytes: r.attachment_bytes === null ? null : Number(r.attachment_bytes),
    occurred_at: isoTimestamp(r.occurred_at),
    created_at: isoTimestamp(r.created_at),
    updated_at: isoTimestamp(r.updated_at),
    comments: r.comments.map((c) => ({ ...c, created_at: isoTimestamp(c.created_at) })),
  }));
}

/** One engagement of the project as answered; 404 when the project has no such engagement. */
export async function engagementOut(em: Em, projectId: number, engagementId: number): Promise<EngagementOut> {
  const [row] = await engagementRows(em, projectId, engagementId);
  if (!row) throw notFound(UNKNOWN_ENGAGEMENT);
  return row;
}

export interface EngagementRecord {
  id: number;
  author_id: number;
  created_at: Date;
  attachment_path: string | null;
  attachment_content_type: string | null;
  attachment_filename: string | null;
}

/** The engagement's own columns, locked for the change when `forUpdate`; 404 when the project has no such engagement. */
export async function findEngagement(em: Em, projectId: number, engagementId: number, forUpdate = false): Promise<EngagementRecord> {
  const row = await db(em)
    .selectFrom('engagements')
    .select(['id', 'author_id', 'created_at', 'attachment_path', 'attachment_content_type', 'attachment_filename'])
    .where('id', '=', engagementId)
    .where('project_id', '=', projectId)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_ENGAGEMENT);
  return { ...row, created_at: new Date(row.created_at) };
}
