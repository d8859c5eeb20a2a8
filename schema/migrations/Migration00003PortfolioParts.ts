import { Migration } from '@mikro-orm/migrations';

export class Migration00003PortfolioParts extends Migration {
  override name = 'Migration00003PortfolioParts';

  override up(): void | Promise<void> {
    this.addSql(`create table "portfolio_parts" (
      "id" serial primary key,
      "project_id" int not null,
      "idx" int not null,
      "kind" text not null,
      "name" varchar(255) not null,
      "original_filename" varchar(255) not null,
      "storage_key" varchar(1024) not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "portfolio_parts_project_id_index" on "portfolio_parts" ("project_id");`);
    this.addSql(`alter table "portfolio_parts" add constraint "portfolio_parts_project_id_idx_unique" unique ("project_id", "idx");`);

    this.addSql(`alter table "portfolio_parts" add constraint "portfolio_parts_project_id_foreign"
      foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "portfolio_parts" add constraint "portfolio_parts_kind_check" check ("kind" in ('document', 'code', 'image'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "portfolio_parts" cascade;`);
  }
}
