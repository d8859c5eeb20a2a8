import { Migration } from '@mikro-orm/migrations';

export class Migration00006WorkerHeartbeats extends Migration {
  override name = 'Migration00006WorkerHeartbeats';

  override up(): void | Promise<void> {
    this.addSql(`create table "worker_heartbeats" (
      "pool_id" varchar(100) not null,
      "hostname" varchar(255) not null,
      "pid" int not null,
      "started_at" timestamptz not null,
      "seen_at" timestamptz not null,
      primary key ("pool_id")
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "worker_heartbeats" cascade;`);
  }
}
