import { Migration } from '@mikro-orm/migrations';

export class Migration00002SignInThrottleAndSamlReplay extends Migration {
  override name = 'Migration00002SignInThrottleAndSamlReplay';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_in_throttles" (
      "key" varchar(300) not null,
      "failures" int not null,
      "window_ends_at" timestamptz not null,
      primary key ("key")
    );`);

    this.addSql(`create table "used_saml_assertions" ("assertion_id" varchar(255) not null, "expires_at" timestamptz not null, primary key ("assertion_id"));`);
    this.addSql(`create index "used_saml_assertions_expires_at_index" on "used_saml_assertions" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_in_throttles" cascade;`);
    this.addSql(`drop table if exists "used_saml_assertions" cascade;`);
  }
}
