// A unit's students in one SQL statement, whatever their number: tutorial enrolments are a
// JSON array built by PostgreSQL and the similarity flag an EXISTS, both correlated on the
// project, so nothing is fetched per row. The unit page and the CSV export read through it.
import { sql } from 'kysely';
import type { ProjectStats } from '../../../schema/projects.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';

export interface StudentFilter {
  /** Withdrawn projects too (default: enrolled only). */
  includeWithdrawn?: boolean;
  /** Only these projects. */
  projectIds?: number[];
}

export async function loadUnitStudents(em: Em, unitId: number, filter: StudentFilter = {}) {
  if (filter.projectIds && filter.projectIds.length === 0) return [];
  const rows = await db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.enrolled',
      'p.campus_id',
      'p.target_grade',
      'p.submitted_grade',
      'p.compile_portfolio',
      'p.grade',
      'p.grade_rationale',
      'p.portfolio_production_date',
      'p.uses_draft_learning_summary',
      'p.task_stats',
      'u.id as user_id',
      'u.student_id',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.nickname',
    ])
    .select(
      sql<{ stream_abbr: string | null; tutorial_id: number }[]>`(
        select coalesce(json_agg(json_build_object('stream_abbr', s.abbreviation, 'tutorial_id', e.tutorial_id)
                                 order by s.abbreviation nulls first, e.tutorial_id), '[]')
        from tutorial_enrolments e
        join tutorials t on t.id = e.tutorial_id
        left join tutorial_streams s on s.id = t.tutorial_stream_id
        where e.project_id = p.id)`.as('tutorial_enrolments'),
    )
    .select(
      sql<boolean>`exists (
        select 1 from tasks k join task_similarities m on m.task_id = k.id
        where k.project_id = p.id and m.flagged)`.as('similarity_flag'),
    )
    .where('p.unit_id', '=', unitId)
    .$if(!filter.includeWithdrawn, (q) => q.where('p.enrolled', '=', true))
    .$if(filter.projectIds !== undefined, (q) => q.where('p.id', 'in', filter.projectIds!))
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    enrolled: r.enrolled,
    campus_id: r.campus_id,
    student: {
      id: r.user_id,
      student_id: r.student_id,
      username: r.username,
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
      nickname: r.nickname,
    },
    target_grade: r.target_grade,
    submitted_grade: r.submitted_grade,
    compile_portfolio: r.compile_portfolio,
    grade: r.grade,
    grade_rationale: r.grade_rationale,
    similarity_flag: r.similarity_flag,
    has_portfolio: r.portfolio_production_date !== null,
    portfolio_available: portfolioAvailable(r),
    uses_draft_learning_summary: r.uses_draft_learning_summary,
    stats: parseJson<ProjectStats>(r.task_stats),
    tutorial_enrolments: parseJson<{ stream_abbr: string | null; tutorial_id: number }[]>(r.tutorial_enrolments),
  }));
}

/** JSON columns arrive as text or parsed, depending on the driver's type parsers. */
export function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
