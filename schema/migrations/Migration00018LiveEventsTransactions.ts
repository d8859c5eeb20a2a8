import { Migration } from '@mikro-orm/migrations';

// Live updates (docs/marking/live-updates.md): which transaction wrote each event, and the oldest
// transaction still open when it did, so that a client reconnecting with an event's id also gets
// the events of transactions that committed after that one though numbered before it.
export class Migration00018LiveEventsTransactions extends Migration {
  override name = 'Migration00018LiveEventsTransactions';

  override up(): void | Promise<void> {
    // Rows written before: '0' for both, as if long committed. A client reconnecting with such an
    // id then gets every kept event of its filter (more than it missed, never less); no reader
    // takes them for late commits. The defaults that follow apply to new rows only.
    this.addSql(`alter table "live_events" add column "xact" xid8 not null default '0', add column "xact_xmin" xid8 not null default '0';`);
    this.addSql(
      `alter table "live_events" alter column "xact" set default pg_current_xact_id(), alter column "xact_xmin" set default pg_snapshot_xmin(pg_current_snapshot());`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "live_events" drop column "xact", drop column "xact_xmin";`);
  }
}
