import { Migration } from '@mikro-orm/migrations';

// LTI 1.3 (docs/lti.md): the platforms (LMSs) an Admin registered, the tool's own signing keys, the
// link from a platform's user (issuer, sub) to a user here, and the single-use OIDC login states.
export class Migration00008Lti extends Migration {
  override name = 'Migration00008Lti';

  override up(): void | Promise<void> {
    this.addSql(`create table "lti_platforms" (
      "id" serial primary key,
      "name" varchar(255) not null,
      "issuer" varchar(1024) not null,
      "client_id" varchar(255) not null,
      "auth_login_url" varchar(2048) not null,
      "auth_token_url" varchar(2048) not null,
      "jwks_url" varchar(2048) not null,
      "deployment_ids" text[] not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "lti_platforms_issuer_client_id_unique" unique ("issuer", "client_id")
    );`);
    // private_key holds AES-256-GCM ciphertext (src/lti/key-crypto.ts), never the PEM itself.
    this.addSql(`create table "lti_keys" (
      "id" serial primary key,
      "kid" varchar(64) not null unique,
      "public_jwk" jsonb not null,
      "private_key" text not null,
      "created_at" timestamptz not null,
      "retired_at" timestamptz null
    );`);
    // At most one current key: two requests that both find none cannot both make one.
    this.addSql(`create unique index "lti_keys_one_current" on "lti_keys" ((true)) where "retired_at" is null;`);
    this.addSql(`create table "lti_identities" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "issuer" varchar(1024) not null,
      "sub" varchar(255) not null,
      "created_at" timestamptz not null,
      constraint "lti_identities_issuer_sub_unique" unique ("issuer", "sub")
    );`);
    this.addSql(`create index "lti_identities_user_id_index" on "lti_identities" ("user_id");`);
    this.addSql(`create table "lti_login_states" (
      "state" varchar(64) primary key,
      "nonce" varchar(64) not null,
      "platform_id" int not null references "lti_platforms" ("id") on update cascade on delete cascade,
      "expires_at" timestamptz not null
    );`);
    this.addSql(`create index "lti_login_states_expires_at_index" on "lti_login_states" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "lti_login_states" cascade;`);
    this.addSql(`drop table if exists "lti_identities" cascade;`);
    this.addSql(`drop table if exists "lti_keys" cascade;`);
    this.addSql(`drop table if exists "lti_platforms" cascade;`);
  }
}
