import { Migration } from '@mikro-orm/migrations';

/**
 * A project's grade is never null: it starts at 0, "not graded" (beyond-spec.md §3.4), so the
 * student record answers an integer (spec §2) and the web client's first grade finds the 0 it
 * was shown. A task's quality points start at -1, "not rated", as the original's column does,
 * so every task answer carries the integer the spec types them as.
 */
export class Migration00007GradeAndQualityDefaults extends Migration {
  override name = 'Migration00007GradeAndQualityDefaults';

  override up(): void | Promise<void> {
    this.addSql(`update "projects" set "grade" = 0 where "grade" is null;`);
    this.addSql(`alter table "projects" alter column "grade" set default 0, alter column "grade" set not null;`);
    this.addSql(`update "tasks" set "quality_pts" = -1 where "quality_pts" is null;`);
    this.addSql(`alter table "tasks" alter column "quality_pts" set default -1, alter column "quality_pts" set not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "projects" alter column "grade" drop not null, alter column "grade" drop default;`);
    this.addSql(`alter table "tasks" alter column "quality_pts" drop not null, alter column "quality_pts" drop default;`);
  }
}
