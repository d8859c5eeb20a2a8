import { Migration } from '@mikro-orm/migrations';

// LTI grade passback (AGS, docs/lti.md): line items the tool created or found for task definitions,
// and the passback state of each (task, line item).
export class Migration00013LtiScores extends Migration {
  override name = 'Migration00013LtiScores';

  override up(): void | Promise<void> {
    this.addSql(`create table "lti_line_items" (
      "id" serial primary key,
      "context_id" int not null references "lti_contexts" ("id") on update cascade on delete cascade,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "lineitem_url" varchar(2048) not null,
      "resource_id" varchar(255) null,
      "label" varchar(1024) null,
      "created_by_tool" boolean not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "lti_line_items_context_id_task_definition_id_unique" unique ("context_id", "task_definition_id")
    );`);
    // Every task change looks here (and at lti_resource_links) by definition: an index scan that finds nothing for a unit without LTI.
    this.addSql(`create index "lti_line_items_task_definition_id_index" on "lti_line_items" ("task_definition_id");`);
    this.addSql(`create table "lti_score_passbacks" (
      "id" serial primary key,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "context_id" int not null references "lti_contexts" ("id") on update cascade on delete cascade,
      "lineitem_url" varchar(2048) not null,
      "state" text not null,
      "version" int not null default 1,
      "changed_at" timestamptz not null,
      "attempts" int not null default 0,
      "error" text null,
      "score" jsonb null,
      "sent_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(
      `alter table "lti_score_passbacks" add constraint "lti_score_passbacks_state_check" check ("state" in ('pending', 'sent', 'retrying', 'failed', 'skipped'));`,
    );
    // One row per (task, line item); the URL through md5, as a URL of 2048 multi-byte characters would not fit a btree entry.
    this.addSql(`create unique index "lti_score_passbacks_task_id_lineitem_unique" on "lti_score_passbacks" ("task_id", md5("lineitem_url"));`);
    this.addSql(`create index "lti_score_passbacks_context_id_index" on "lti_score_passbacks" ("context_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "lti_score_passbacks" cascade;`);
    this.addSql(`drop table if exists "lti_line_items" cascade;`);
  }
}
