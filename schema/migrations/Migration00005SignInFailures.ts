import { Migration } from '@mikro-orm/migrations';

// The sign-in throttle moves to rate-limiter-flexible's PostgreSQL store, which counts failures
// per (address, username) and per address in a table of its own shape. The table is made here,
// not by the library at start, so that several API processes do not race to create it and the
// schema stays in migrations. The old fixed-window counts are dropped: at most one window (15
// minutes) of failures is forgotten.
export class Migration00005SignInFailures extends Migration {
  override name = 'Migration00005SignInFailures';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_in_failures" ("key" varchar(255) not null, "points" int not null default 0, "expire" bigint null, primary key ("key"));`);

    this.addSql(`drop table if exists "sign_in_throttles" cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "sign_in_throttles" (
      "key" varchar(300) not null,
      "failures" int4 not null,
      "window_ends_at" timestamptz(6) not null,
      primary key ("key")
    );`);

    this.addSql(`drop table if exists "sign_in_failures" cascade;`);
  }
}
