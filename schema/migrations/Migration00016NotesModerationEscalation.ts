import { Migration } from '@mikro-orm/migrations';

// Staff notes and their mentions, moderation samples and their items, task escalations
// (docs/marking/notes-moderation-escalation.md).
export class Migration00016NotesModerationEscalation extends Migration {
  override name = 'Migration00016NotesModerationEscalation';

  override up(): void | Promise<void> {
    this.addSql(`create table "staff_notes" (
      "id" serial primary key,
      "project_id" int not null references "projects" ("id") on update cascade on delete cascade,
      "author_id" int not null references "users" ("id") on update cascade on delete cascade,
      "task_definition_id" int null references "task_definitions" ("id") on update cascade on delete set null,
      "text" text not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "staff_notes_project_id_index" on "staff_notes" ("project_id");`);
    this.addSql(`create index "staff_notes_author_id_index" on "staff_notes" ("author_id");`);
    this.addSql(`create index "staff_notes_task_definition_id_index" on "staff_notes" ("task_definition_id");`);

    this.addSql(`create table "staff_note_mentions" (
      "id" serial primary key,
      "note_id" int not null references "staff_notes" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "seen_at" timestamptz null,
      constraint "staff_note_mentions_note_id_user_id_unique" unique ("note_id", "user_id")
    );`);
    this.addSql(`create index "staff_note_mentions_user_id_index" on "staff_note_mentions" ("user_id");`);

    this.addSql(`create table "moderation_samples" (
      "id" serial primary key,
      "unit_id" int not null references "units" ("id") on update cascade on delete cascade,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "percent" int not null,
      "moderator_ids" jsonb not null,
      "created_by_id" int null references "users" ("id") on update cascade on delete set null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "moderation_samples_unit_id_index" on "moderation_samples" ("unit_id");`);
    this.addSql(`create index "moderation_samples_task_definition_id_index" on "moderation_samples" ("task_definition_id");`);

    this.addSql(`create table "moderation_items" (
      "id" serial primary key,
      "sample_id" int not null references "moderation_samples" ("id") on update cascade on delete cascade,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "assessor_id" int not null references "users" ("id") on update cascade on delete cascade,
      "verdict" text null,
      "comment" text null,
      "reviewer_id" int null references "users" ("id") on update cascade on delete set null,
      "reviewed_at" timestamptz null,
      constraint "moderation_items_task_id_unique" unique ("task_id")
    );`);
    this.addSql(`alter table "moderation_items" add constraint "moderation_items_verdict_check" check ("verdict" in ('agree', 'disagree'));`);
    this.addSql(`create index "moderation_items_sample_id_index" on "moderation_items" ("sample_id");`);
    this.addSql(`create index "moderation_items_assessor_id_index" on "moderation_items" ("assessor_id");`);

    this.addSql(`create table "task_escalations" (
      "id" serial primary key,
      "unit_id" int not null references "units" ("id") on update cascade on delete cascade,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "escalated_by_id" int not null references "users" ("id") on update cascade on delete cascade,
      "reason" text not null,
      "created_at" timestamptz not null,
      "resolved_at" timestamptz null,
      "resolved_by_id" int null references "users" ("id") on update cascade on delete set null,
      "resolution_note" text null
    );`);
    this.addSql(`create index "task_escalations_task_id_index" on "task_escalations" ("task_id");`);
    this.addSql(`create index "task_escalations_escalated_by_id_index" on "task_escalations" ("escalated_by_id");`);
    // The inbox and the workload dashboard read only the open ones of a unit; one open escalation per task.
    this.addSql(`create index "task_escalations_open_unit_index" on "task_escalations" ("unit_id", "escalated_by_id") where "resolved_at" is null;`);
    this.addSql(`create unique index "task_escalations_open_task_unique" on "task_escalations" ("task_id") where "resolved_at" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "task_escalations" cascade;`);
    this.addSql(`drop table if exists "moderation_items" cascade;`);
    this.addSql(`drop table if exists "moderation_samples" cascade;`);
    this.addSql(`drop table if exists "staff_note_mentions" cascade;`);
    this.addSql(`drop table if exists "staff_notes" cascade;`);
  }
}
