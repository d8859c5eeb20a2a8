import { Migration } from '@mikro-orm/migrations';

export class Migration00004Invitations extends Migration {
  override name = 'Migration00004Invitations';

  override up(): void | Promise<void> {
    this.addSql(`create table "invitations" (
      "id" serial primary key,
      "user_id" int not null,
      "token_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "invitations_user_id_index" on "invitations" ("user_id");`);
    this.addSql(`alter table "invitations" add constraint "invitations_token_hash_unique" unique ("token_hash");`);

    this.addSql(`alter table "invitations" add constraint "invitations_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "invitations" cascade;`);
  }
}
