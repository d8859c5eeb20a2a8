import { Migration } from '@mikro-orm/migrations';

// LTI 1.3 courses and links (docs/lti.md): a platform's context linked to a unit, with the NRPS and
// AGS service URLs its launches named, and the resource links placed in it (a task, a gradebook column).
export class Migration00009LtiContexts extends Migration {
  override name = 'Migration00009LtiContexts';

  override up(): void | Promise<void> {
    this.addSql(`create table "lti_contexts" (
      "id" serial primary key,
      "platform_id" int not null references "lti_platforms" ("id") on update cascade on delete cascade,
      "context_id" varchar(255) not null,
      "deployment_id" varchar(255) not null,
      "title" varchar(1024) null,
      "label" varchar(255) null,
      "unit_id" int null references "units" ("id") on update cascade on delete set null,
      "memberships_url" varchar(2048) null,
      "lineitems_url" varchar(2048) null,
      "ags_scopes" text[] not null default '{}',
      "last_roster_sync_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "lti_contexts_platform_id_context_id_unique" unique ("platform_id", "context_id")
    );`);
    this.addSql(`create index "lti_contexts_unit_id_index" on "lti_contexts" ("unit_id");`);
    this.addSql(`create table "lti_resource_links" (
      "id" serial primary key,
      "context_id" int not null references "lti_contexts" ("id") on update cascade on delete cascade,
      "resource_link_id" varchar(255) not null,
      "title" varchar(1024) null,
      "task_definition_id" int null references "task_definitions" ("id") on update cascade on delete set null,
      "lineitem_url" varchar(2048) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "lti_resource_links_context_id_resource_link_id_unique" unique ("context_id", "resource_link_id")
    );`);
    this.addSql(`create index "lti_resource_links_task_definition_id_index" on "lti_resource_links" ("task_definition_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "lti_resource_links" cascade;`);
    this.addSql(`drop table if exists "lti_contexts" cascade;`);
  }
}
