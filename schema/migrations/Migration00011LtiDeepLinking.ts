import { Migration } from '@mikro-orm/migrations';

// LTI deep linking (docs/lti.md): the choice an Instructor is making between the deep-linking launch
// and POST /api/lti/deep_link, each ticket used once and short-lived.
export class Migration00011LtiDeepLinking extends Migration {
  override name = 'Migration00011LtiDeepLinking';

  override up(): void | Promise<void> {
    this.addSql(`create table "lti_deep_linking_tickets" (
      "ticket" varchar(64) not null primary key,
      "platform_id" int not null references "lti_platforms" ("id") on update cascade on delete cascade,
      "deployment_id" varchar(255) not null,
      "context_id" int not null references "lti_contexts" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "settings" jsonb not null,
      "target_link_uri" varchar(2048) not null,
      "expires_at" timestamptz not null
    );`);
    this.addSql(`create index "lti_deep_linking_tickets_expires_at_index" on "lti_deep_linking_tickets" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "lti_deep_linking_tickets" cascade;`);
  }
}
