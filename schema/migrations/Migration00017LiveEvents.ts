import { Migration } from '@mikro-orm/migrations';

// Live updates (docs/marking/live-updates.md): the last few minutes of task events, for clients
// that reconnect with the last event id they saw. No foreign keys: rows live minutes, and a
// deleted task's event is harmless (its receivers re-read and find nothing).
export class Migration00017LiveEvents extends Migration {
  override name = 'Migration00017LiveEvents';

  override up(): void | Promise<void> {
    this.addSql(`create table "live_events" (
      "id" bigserial primary key,
      "unit_id" int not null,
      "project_id" int not null,
      "task_id" int not null,
      "kind" varchar(20) not null,
      "created_at" timestamptz not null
    );`);
    // Pruning deletes by age.
    this.addSql(`create index "live_events_created_at_index" on "live_events" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "live_events" cascade;`);
  }
}
