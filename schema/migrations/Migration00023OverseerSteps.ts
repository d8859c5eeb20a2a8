import { Migration } from '@mikro-orm/migrations';

const STATUSES = `'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate', 'fail', 'time_exceeded'`;

// Automated assessment in steps (docs/assessment-steps.md): a task definition's steps, and what
// each step did in each assessment run.
export class Migration00023OverseerSteps extends Migration {
  override name = 'Migration00023OverseerSteps';

  override up(): void | Promise<void> {
    this.addSql(`create table "overseer_steps" (
      "id" serial primary key,
      "task_definition_id" int not null references "task_definitions" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "display_name" varchar(255) null,
      "description" text null,
      "display_description" text null,
      "sort_order" int not null default 0,
      "enabled" boolean not null default true,
      "step_type" text not null default 'command',
      "run_command" text not null,
      "timeout_ms" int not null default 30000,
      "stdin_input_file" varchar(255) null,
      "expected_output_file" varchar(255) null,
      "partial_output_diff" boolean not null default false,
      "output_comparison" text not null default 'exact',
      "feedback_message" text null,
      "status_on_success" text null,
      "status_on_failure" text null,
      "halt_on_success" boolean not null default false,
      "halt_on_failure" boolean not null default false,
      "show_expected_output" boolean not null default false,
      "show_stdin" boolean not null default false,
      "show_stdout" boolean not null default false,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "overseer_steps_task_definition_id_name_unique" unique ("task_definition_id", "name")
    );`);
    this.addSql(`create index "overseer_steps_task_definition_id_index" on "overseer_steps" ("task_definition_id");`);
    this.addSql(`alter table "overseer_steps" add constraint "overseer_steps_step_type_check" check ("step_type" in ('command'));`);
    this.addSql(`alter table "overseer_steps" add constraint "overseer_steps_output_comparison_check" check ("output_comparison" in ('exact', 'whitespace'));`);
    this.addSql(`alter table "overseer_steps" add constraint "overseer_steps_status_on_success_check" check ("status_on_success" in (${STATUSES}));`);
    this.addSql(`alter table "overseer_steps" add constraint "overseer_steps_status_on_failure_check" check ("status_on_failure" in (${STATUSES}));`);
    this.addSql(`alter table "overseer_steps" add constraint "overseer_steps_timeout_ms_check" check ("timeout_ms" between 1 and 600000);`);

    this.addSql(`create table "overseer_step_results" (
      "id" serial primary key,
      "assessment_id" int not null references "overseer_assessments" ("id") on update cascade on delete cascade,
      "step_id" int null references "overseer_steps" ("id") on update cascade on delete set null,
      "position" int not null,
      "name" varchar(255) not null,
      "display_name" varchar(255) null,
      "outcome" text not null,
      "pass" boolean not null,
      "exit_status" int null,
      "duration_ms" int null,
      "stdout" text null,
      "stdout_sha256" varchar(64) null,
      "stdout_bytes" bigint null,
      "stdin" text null,
      "stdin_sha256" varchar(64) null,
      "expected_output" text null,
      "expected_output_sha256" varchar(64) null,
      "feedback_message" text null,
      "show_expected_output" boolean not null default false,
      "show_stdin" boolean not null default false,
      "show_stdout" boolean not null default false,
      "created_at" timestamptz not null,
      constraint "overseer_step_results_assessment_id_position_unique" unique ("assessment_id", "position")
    );`);
    this.addSql(`create index "overseer_step_results_step_id_index" on "overseer_step_results" ("step_id");`);
    this.addSql(
      `alter table "overseer_step_results" add constraint "overseer_step_results_outcome_check" check ("outcome" in ('passed', 'failed', 'timed_out', 'out_of_memory', 'skipped'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "overseer_step_results" cascade;`);
    this.addSql(`drop table if exists "overseer_steps" cascade;`);
  }
}
