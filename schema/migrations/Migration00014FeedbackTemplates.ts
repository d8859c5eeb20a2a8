import { Migration } from '@mikro-orm/migrations';
import { TASK_STATUSES } from '../enums.ts';

// Feedback templates (docs/marking/templates.md): groups of comment templates per unit or task
// definition, their uses, and the unit setting that requires a comment with some status changes.
export class Migration00014FeedbackTemplates extends Migration {
  override name = 'Migration00014FeedbackTemplates';

  override up(): void | Promise<void> {
    const statuses = TASK_STATUSES.map((s) => `'${s}'`).join(', ');
    this.addSql(`alter table "units" add column "require_feedback_comment" boolean not null default false;`);
    this.addSql(`create table "feedback_template_groups" (
      "id" serial primary key,
      "unit_id" int not null references "units" ("id") on update cascade on delete cascade,
      "task_definition_id" int null references "task_definitions" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "feedback_template_groups_unit_id_index" on "feedback_template_groups" ("unit_id");`);
    this.addSql(`create index "feedback_template_groups_task_definition_id_index" on "feedback_template_groups" ("task_definition_id");`);
    this.addSql(`create table "feedback_templates" (
      "id" serial primary key,
      "group_id" int not null references "feedback_template_groups" ("id") on update cascade on delete cascade,
      "title" varchar(255) not null,
      "text" text not null,
      "suggested_status" text null check ("suggested_status" in (${statuses})),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "feedback_templates_group_id_index" on "feedback_templates" ("group_id");`);
    this.addSql(`create table "feedback_template_uses" (
      "id" serial primary key,
      "template_id" int not null references "feedback_templates" ("id") on update cascade on delete cascade,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "comment_id" int null references "task_comments" ("id") on update cascade on delete set null,
      "user_id" int null references "users" ("id") on update cascade on delete set null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "feedback_template_uses_template_id_index" on "feedback_template_uses" ("template_id");`);
    this.addSql(`create index "feedback_template_uses_task_id_index" on "feedback_template_uses" ("task_id");`);
    this.addSql(`create index "feedback_template_uses_comment_id_index" on "feedback_template_uses" ("comment_id");`);
    this.addSql(`create index "feedback_template_uses_user_id_index" on "feedback_template_uses" ("user_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "feedback_template_uses";`);
    this.addSql(`drop table if exists "feedback_templates";`);
    this.addSql(`drop table if exists "feedback_template_groups";`);
    this.addSql(`alter table "units" drop column if exists "require_feedback_comment";`);
  }
}
