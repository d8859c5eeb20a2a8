import { Migration } from '@mikro-orm/migrations';

const STATUSES = `'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate', 'fail', 'time_exceeded'`;

// Online tests (docs/online-tests.md): a task definition's SCORM package and its settings, a
// task's extra attempt blocks, the attempts with their run-time data, the comments that state an
// attempt's result, and the tokens that serve a package's assets.
export class Migration00019OnlineTests extends Migration {
  override name = 'Migration00019OnlineTests';

  override up(): void | Promise<void> {
    this.addSql(`alter table "task_definitions"
      add "scorm_enabled" boolean not null default false,
      add "scorm_allow_review" boolean not null default false,
      add "scorm_bypass_test" boolean not null default false,
      add "scorm_time_delay_enabled" boolean not null default false,
      add "scorm_attempt_limit" int not null default 0,
      add "scorm_trust" text not null default 'package',
      add "scorm_pass_status" text null,
      add "scorm_version" text null,
      add "scorm_launch_file" varchar(1024) null,
      add "scorm_package_bytes" bigint null;`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_scorm_attempt_limit_check" check ("scorm_attempt_limit" >= 0);`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_scorm_trust_check" check ("scorm_trust" in ('package', 'staff'));`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_scorm_pass_status_check" check ("scorm_pass_status" in (${STATUSES}));`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_scorm_version_check" check ("scorm_version" in ('1.2', '2004'));`);

    this.addSql(`alter table "tasks" add "scorm_extensions" int not null default 0;`);
    this.addSql(`alter table "tasks" add constraint "tasks_scorm_extensions_check" check ("scorm_extensions" >= 0);`);

    this.addSql(`create table "test_attempts" (
      "id" serial primary key,
      "task_id" int not null references "tasks" ("id") on update cascade on delete cascade,
      "attempted_time" timestamptz not null,
      "terminated" boolean not null default false,
      "terminated_at" timestamptz null,
      "completion_status" boolean not null default false,
      "success_status" boolean not null default false,
      "score_scaled" double precision null,
      "cmi_datamodel" jsonb not null,
      "success_overridden_by_id" int null references "users" ("id") on update cascade on delete set null,
      "success_overridden_at" timestamptz null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "test_attempts_task_id_attempted_time_index" on "test_attempts" ("task_id", "attempted_time");`);
    this.addSql(`create index "test_attempts_success_overridden_by_id_index" on "test_attempts" ("success_overridden_by_id");`);

    this.addSql(`alter table "task_comments" add "test_attempt_id" int null references "test_attempts" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "task_comments_test_attempt_id_index" on "task_comments" ("test_attempt_id");`);
    this.addSql(`alter table "task_comments" drop constraint "task_comments_kind_check";`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_kind_check"
      check ("kind" in ('text', 'image', 'audio', 'pdf', 'status', 'extension', 'discussion', 'assessment', 'scorm', 'scorm_extension'));`);

    this.addSql(`create table "scorm_tokens" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "token_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "created_at" timestamptz not null,
      constraint "scorm_tokens_token_hash_unique" unique ("token_hash")
    );`);
    this.addSql(`create index "scorm_tokens_user_id_index" on "scorm_tokens" ("user_id");`);
    this.addSql(`create index "scorm_tokens_expires_at_index" on "scorm_tokens" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "scorm_tokens" cascade;`);
    this.addSql(`delete from "task_comments" where "kind" in ('scorm', 'scorm_extension');`);
    this.addSql(`alter table "task_comments" drop constraint "task_comments_kind_check";`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_kind_check"
      check ("kind" in ('text', 'image', 'audio', 'pdf', 'status', 'extension', 'discussion', 'assessment'));`);
    this.addSql(`alter table "task_comments" drop column "test_attempt_id";`);
    this.addSql(`drop table if exists "test_attempts" cascade;`);
    this.addSql(`alter table "tasks" drop column "scorm_extensions";`);
    this.addSql(`alter table "task_definitions"
      drop column "scorm_enabled", drop column "scorm_allow_review", drop column "scorm_bypass_test",
      drop column "scorm_time_delay_enabled", drop column "scorm_attempt_limit", drop column "scorm_trust",
      drop column "scorm_pass_status", drop column "scorm_version", drop column "scorm_launch_file",
      drop column "scorm_package_bytes";`);
  }
}
