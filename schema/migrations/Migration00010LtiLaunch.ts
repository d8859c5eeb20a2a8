import { Migration } from '@mikro-orm/migrations';

// LTI 1.3 launch (docs/lti.md): the single-use sign-in tokens a launch hands the web client, and the
// tickets that carry a validated launch from an unlinked context while its Instructor picks the unit.
export class Migration00010LtiLaunch extends Migration {
  override name = 'Migration00010LtiLaunch';

  override up(): void | Promise<void> {
    this.addSql(`create table "lti_sign_in_tokens" (
      "token_hash" varchar(64) primary key,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "expires_at" timestamptz not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "lti_sign_in_tokens_user_id_index" on "lti_sign_in_tokens" ("user_id");`);
    this.addSql(`create index "lti_sign_in_tokens_expires_at_index" on "lti_sign_in_tokens" ("expires_at");`);
    this.addSql(`create table "lti_launch_tickets" (
      "ticket_hash" varchar(64) primary key,
      "platform_id" int not null references "lti_platforms" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "claims" jsonb not null,
      "expires_at" timestamptz not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "lti_launch_tickets_expires_at_index" on "lti_launch_tickets" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "lti_launch_tickets" cascade;`);
    this.addSql(`drop table if exists "lti_sign_in_tokens" cascade;`);
  }
}
