import { Migration } from '@mikro-orm/migrations';

const STATUSES = `'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate', 'fail', 'time_exceeded'`;

// The teaching rules of the newest original (issue 27): task prerequisites, discussion prompts and
// required discussion, discuss timeouts, and check-ins (engagements) with their replies.
export class Migration00024TeachingRules extends Migration {
  override name = 'Migration00024TeachingRules';

  override up(): void | Promise<void> {
    this.addSql(`create table "task_prerequisites" (
      "id" serial primary key,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "prerequisite_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "task_status" text not null default 'complete',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "task_prerequisites_task_definition_id_prerequisite_id_unique" unique ("task_definition_id", "prerequisite_id"),
      constraint "task_prerequisites_not_itself_check" check ("task_definition_id" <> "prerequisite_id")
    );`);
    this.addSql(`create index "task_prerequisites_prerequisite_id_index" on "task_prerequisites" ("prerequisite_id");`);
    this.addSql(`alter table "task_prerequisites" add constraint "task_prerequisites_task_status_check" check ("task_status" in (${STATUSES}));`);

    this.addSql(`create table "discussion_prompts" (
      "id" serial primary key,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "content" text not null,
      "priority" int not null default 0,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "discussion_prompts_task_definition_id_index" on "discussion_prompts" ("task_definition_id");`);

    this.addSql(`alter table "task_definitions" add "requires_discussion" boolean not null default false;`);

    this.addSql(`alter table "units"
      add "discuss_timeout_enabled" boolean not null default false,
      add "discuss_timeout_warning_days" int not null default 7,
      add "discuss_timeout_expire_days" int not null default 14;`);
    this.addSql(
      `alter table "units" add constraint "units_discuss_timeout_days_check" check ("discuss_timeout_warning_days" >= 1 and "discuss_timeout_expire_days" > "discuss_timeout_warning_days");`,
    );

    this.addSql(`alter table "tasks"
      add "moved_to_discuss_at" timestamptz null,
      add "notified_discuss_warning_at" timestamptz null,
      add "notified_discuss_expiry_at" timestamptz null;`);
    // Tasks already in discuss or demonstrate: since their latest status comment saying so, else their last change.
    this.addSql(`update "tasks" t set "moved_to_discuss_at" = coalesce(
        (select max(c."created_at") from "task_comments" c where c."task_id" = t."id" and c."kind" = 'status' and c."task_status" = t."status"),
        t."updated_at")
      where t."status" in ('discuss', 'demonstrate');`);
    // The daily timeout job reads the tasks in discuss.
    this.addSql(`create index "tasks_discuss_index" on "tasks" ("moved_to_discuss_at") where "status" = 'discuss';`);

    this.addSql(`create table "engagements" (
      "id" serial primary key,
      "project_id" int not null references "projects" ("id") on update cascade on delete cascade,
      "author_id" int not null references "users" ("id") on update cascade,
      "engagement_type" varchar(255) not null,
      "note" text not null,
      "occurred_at" timestamptz not null,
      "evidence_url" text null,
      "attachment_path" varchar(1024) null,
      "attachment_content_type" varchar(255) null,
      "attachment_filename" varchar(255) null,
      "attachment_bytes" bigint null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "engagements_one_evidence_check" check ("evidence_url" is null or "attachment_path" is null)
    );`);
    this.addSql(`create index "engagements_project_id_occurred_at_index" on "engagements" ("project_id", "occurred_at");`);
    this.addSql(`create index "engagements_author_id_index" on "engagements" ("author_id");`);

    this.addSql(`create table "engagement_comments" (
      "id" serial primary key,
      "engagement_id" int not null references "engagements" ("id") on update cascade on delete cascade,
      "author_id" int not null references "users" ("id") on update cascade,
      "comment" text not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "engagement_comments_engagement_id_index" on "engagement_comments" ("engagement_id");`);
    this.addSql(`create index "engagement_comments_author_id_index" on "engagement_comments" ("author_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "engagement_comments" cascade;`);
    this.addSql(`drop table if exists "engagements" cascade;`);
    this.addSql(`drop index if exists "tasks_discuss_index";`);
    this.addSql(`alter table "tasks" drop column "moved_to_discuss_at", drop column "notified_discuss_warning_at", drop column "notified_discuss_expiry_at";`);
    this.addSql(`alter table "units" drop constraint "units_discuss_timeout_days_check";`);
    this.addSql(
      `alter table "units" drop column "discuss_timeout_enabled", drop column "discuss_timeout_warning_days", drop column "discuss_timeout_expire_days";`,
    );
    this.addSql(`alter table "task_definitions" drop column "requires_discussion";`);
    this.addSql(`drop table if exists "discussion_prompts" cascade;`);
    this.addSql(`drop table if exists "task_prerequisites" cascade;`);
  }
}
