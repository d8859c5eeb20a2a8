import { Migration } from '@mikro-orm/migrations';

// Rubrics (docs/marking/rubrics.md): a definition's criteria and levels, and the tasks marked against them.
export class Migration00015Rubrics extends Migration {
  override name = 'Migration00015Rubrics';

  override up(): void | Promise<void> {
    this.addSql(`create table "rubrics" (
      "id" serial primary key,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "mapping" text not null default 'none',
      "thresholds" jsonb null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "rubrics_task_definition_id_unique" unique ("task_definition_id")
    );`);
    this.addSql(`alter table "rubrics" add constraint "rubrics_mapping_check" check ("mapping" in ('none', 'grade', 'quality_pts'));`);
    this.addSql(`create table "rubric_criteria" (
      "id" serial primary key,
      "rubric_id" int not null references "rubrics" ("id") on update cascade on delete cascade,
      "title" varchar(255) not null,
      "description" text not null default '',
      "position" int not null,
      constraint "rubric_criteria_rubric_id_position_unique" unique ("rubric_id", "position")
    );`);
    this.addSql(`create table "rubric_levels" (
      "id" serial primary key,
      "criterion_id" int not null references "rubric_criteria" ("id") on update cascade on delete cascade,
      "title" varchar(255) not null,
      "description" text not null default '',
      "points" double precision not null,
      "position" int not null,
      constraint "rubric_levels_criterion_id_position_unique" unique ("criterion_id", "position")
    );`);
    this.addSql(`create table "rubric_marks" (
      "id" serial primary key,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "rubric_id" int not null references "rubrics" ("id") on update cascade on delete cascade,
      "score" double precision not null,
      "marker_id" int null references "users" ("id") on update cascade on delete set null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "rubric_marks_task_id_unique" unique ("task_id")
    );`);
    this.addSql(`create index "rubric_marks_rubric_id_index" on "rubric_marks" ("rubric_id");`);
    this.addSql(`create table "rubric_mark_choices" (
      "id" serial primary key,
      "mark_id" int not null references "rubric_marks" ("id") on update cascade on delete cascade,
      "criterion_id" int not null references "rubric_criteria" ("id") on update cascade on delete cascade,
      "level_id" int not null references "rubric_levels" ("id") on update cascade on delete restrict,
      constraint "rubric_mark_choices_mark_id_criterion_id_unique" unique ("mark_id", "criterion_id")
    );`);
    // Re-scoring finds the marks that chose a level.
    this.addSql(`create index "rubric_mark_choices_level_id_index" on "rubric_mark_choices" ("level_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rubric_mark_choices" cascade;`);
    this.addSql(`drop table if exists "rubric_marks" cascade;`);
    this.addSql(`drop table if exists "rubric_levels" cascade;`);
    this.addSql(`drop table if exists "rubric_criteria" cascade;`);
    this.addSql(`drop table if exists "rubrics" cascade;`);
  }
}
