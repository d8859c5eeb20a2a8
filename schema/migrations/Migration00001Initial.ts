import { Migration } from '@mikro-orm/migrations';

export class Migration00001Initial extends Migration {
  override name = 'Migration00001Initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "activity_types" ("id" serial primary key, "name" varchar(255) not null, "abbreviation" varchar(255) not null);`);
    this.addSql(`alter table "activity_types" add constraint "activity_types_name_unique" unique ("name");`);
    this.addSql(`alter table "activity_types" add constraint "activity_types_abbreviation_unique" unique ("abbreviation");`);

    this.addSql(`create table "campuses" (
      "id" serial primary key,
      "name" varchar(255) not null,
      "abbreviation" varchar(255) not null,
      "mode" text not null,
      "active" boolean not null default true
    );`);
    this.addSql(`alter table "campuses" add constraint "campuses_name_unique" unique ("name");`);
    this.addSql(`alter table "campuses" add constraint "campuses_abbreviation_unique" unique ("abbreviation");`);
    this.addSql(`alter table "campuses" add constraint "campuses_mode_check" check ("mode" in ('timetable', 'automatic', 'manual'));`);

    this.addSql(`create table "overseer_images" (
      "id" serial primary key,
      "name" varchar(255) not null,
      "tag" varchar(255) not null,
      "pull_status" text null,
      "pull_output" text null,
      "pull_requested_at" timestamptz null,
      "last_pulled_at" timestamptz null
    );`);
    this.addSql(`alter table "overseer_images" add constraint "overseer_images_name_unique" unique ("name");`);
    this.addSql(`alter table "overseer_images" add constraint "overseer_images_tag_unique" unique ("tag");`);
    this.addSql(`alter table "overseer_images" add constraint "overseer_images_pull_status_check" check ("pull_status" in ('pending', 'pulled', 'failed'));`);

    this.addSql(`create table "teaching_periods" (
      "id" serial primary key,
      "period" varchar(20) not null,
      "year" int not null,
      "start_date" timestamptz not null,
      "end_date" timestamptz not null,
      "active_until" timestamptz not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`alter table "teaching_periods" add constraint "teaching_periods_period_year_unique" unique ("period", "year");`);

    this.addSql(`create table "breaks" (
      "id" serial primary key,
      "teaching_period_id" int not null,
      "start_date" date not null,
      "number_of_weeks" int not null
    );`);
    this.addSql(`create index "breaks_teaching_period_id_index" on "breaks" ("teaching_period_id");`);

    this.addSql(`create table "users" (
      "id" serial primary key,
      "username" varchar(255) not null,
      "email" varchar(255) not null,
      "first_name" varchar(255) not null,
      "last_name" varchar(255) not null,
      "nickname" varchar(255) null,
      "pronouns" varchar(255) null,
      "student_id" varchar(255) null,
      "system_role" text not null,
      "password_hash" varchar(255) null,
      "receive_task_notifications" boolean not null default true,
      "receive_portfolio_notifications" boolean not null default true,
      "receive_feedback_notifications" boolean not null default true,
      "opt_in_to_research" boolean null,
      "has_run_first_time_setup" boolean not null default false,
      "simcheck_eula_accepted_at" timestamptz null,
      "simcheck_eula_version" varchar(64) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`alter table "users" add constraint "users_username_unique" unique ("username");`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" add constraint "users_student_id_unique" unique ("student_id");`);
    this.addSql(`alter table "users" add constraint "users_system_role_check" check ("system_role" in ('Student', 'Tutor', 'Convenor', 'Admin'));`);

    this.addSql(`create table "units" (
      "id" serial primary key,
      "code" varchar(255) not null,
      "name" varchar(255) not null,
      "description" text not null,
      "teaching_period_id" int null,
      "start_date" date not null,
      "end_date" date not null,
      "active" boolean not null default true,
      "main_convenor_id" int null,
      "overseer_image_id" int null,
      "assessment_enabled" boolean not null default true,
      "auto_apply_extension_before_deadline" boolean not null default true,
      "send_notifications" boolean not null default true,
      "enable_sync_enrolments" boolean not null default false,
      "enable_sync_timetable" boolean not null default false,
      "allow_student_extension_requests" boolean not null default true,
      "allow_student_change_tutorial" boolean not null default true,
      "extension_weeks_on_resubmit_request" int not null default 0,
      "portfolio_auto_generation_date" date null,
      "draft_task_definition_id" int null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "units_teaching_period_id_index" on "units" ("teaching_period_id");`);
    this.addSql(`create index "units_main_convenor_id_index" on "units" ("main_convenor_id");`);
    this.addSql(`create index "units_overseer_image_id_index" on "units" ("overseer_image_id");`);
    this.addSql(`create index "units_draft_task_definition_id_index" on "units" ("draft_task_definition_id");`);
    this.addSql(`create index "units_code_index" on "units" ("code");`);
    this.addSql(`create index "units_active_index" on "units" ("active");`);

    this.addSql(`create table "unit_roles" (
      "id" serial primary key,
      "user_id" int not null,
      "unit_id" int not null,
      "role" text not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "unit_roles_user_id_index" on "unit_roles" ("user_id");`);
    this.addSql(`create index "unit_roles_unit_id_index" on "unit_roles" ("unit_id");`);
    this.addSql(`alter table "unit_roles" add constraint "unit_roles_unit_id_user_id_unique" unique ("unit_id", "user_id");`);
    this.addSql(`alter table "unit_roles" add constraint "unit_roles_role_check" check ("role" in ('Tutor', 'Convenor'));`);

    this.addSql(`create table "tutorial_streams" (
      "id" serial primary key,
      "unit_id" int not null,
      "activity_type_id" int not null,
      "name" varchar(255) not null,
      "abbreviation" varchar(255) not null
    );`);
    this.addSql(`create index "tutorial_streams_unit_id_index" on "tutorial_streams" ("unit_id");`);
    this.addSql(`create index "tutorial_streams_activity_type_id_index" on "tutorial_streams" ("activity_type_id");`);
    this.addSql(`alter table "tutorial_streams" add constraint "tutorial_streams_unit_id_abbreviation_unique" unique ("unit_id", "abbreviation");`);
    this.addSql(`alter table "tutorial_streams" add constraint "tutorial_streams_unit_id_name_unique" unique ("unit_id", "name");`);

    this.addSql(`create table "simcheck_actions" (
      "id" serial primary key,
      "unit_id" int null,
      "action" varchar(64) not null,
      "description" text null,
      "params" jsonb not null default '{}',
      "complete" boolean not null default false,
      "retry" boolean not null default false,
      "retries" int not null default 0,
      "last_run" timestamptz null,
      "error_code" varchar(64) null,
      "error_message" text null,
      "log" jsonb not null default '[]',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "simcheck_actions_unit_id_index" on "simcheck_actions" ("unit_id");`);
    this.addSql(`create index "simcheck_actions_updated_at_index" on "simcheck_actions" ("updated_at");`);

    this.addSql(`create table "learning_outcomes" (
      "id" serial primary key,
      "unit_id" int not null,
      "ilo_number" int not null,
      "abbreviation" varchar(255) not null,
      "name" varchar(255) not null,
      "description" text not null
    );`);
    this.addSql(`create index "learning_outcomes_unit_id_index" on "learning_outcomes" ("unit_id");`);
    this.addSql(`alter table "learning_outcomes" add constraint "learning_outcomes_unit_id_abbreviation_unique" unique ("unit_id", "abbreviation");`);

    this.addSql(`create table "group_sets" (
      "id" serial primary key,
      "unit_id" int not null,
      "name" varchar(255) not null,
      "allow_students_to_create_groups" boolean not null default true,
      "allow_students_to_manage_groups" boolean not null default true,
      "keep_groups_in_same_class" boolean not null default false,
      "capacity" int null,
      "locked" boolean not null default false
    );`);
    this.addSql(`create index "group_sets_unit_id_index" on "group_sets" ("unit_id");`);
    this.addSql(`alter table "group_sets" add constraint "group_sets_unit_id_name_unique" unique ("unit_id", "name");`);

    this.addSql(`create table "task_definitions" (
      "id" serial primary key,
      "unit_id" int not null,
      "tutorial_stream_id" int null,
      "group_set_id" int null,
      "overseer_image_id" int null,
      "name" varchar(255) not null,
      "abbreviation" varchar(255) not null,
      "description" text not null,
      "weighting" int not null default 0,
      "target_grade" int not null default 0,
      "start_date" date not null,
      "target_date" date not null,
      "due_date" date null,
      "restrict_status_updates" boolean not null default false,
      "upload_requirements" jsonb not null default '[]',
      "plagiarism_checks" jsonb not null default '[]',
      "plagiarism_warn_pct" int not null default 50,
      "is_graded" boolean not null default false,
      "max_quality_pts" int not null default 0,
      "assessment_enabled" boolean not null default false,
      "moss_language" varchar(255) null,
      "simcheck_group_id" varchar(255) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "task_definitions_unit_id_index" on "task_definitions" ("unit_id");`);
    this.addSql(`create index "task_definitions_tutorial_stream_id_index" on "task_definitions" ("tutorial_stream_id");`);
    this.addSql(`create index "task_definitions_group_set_id_index" on "task_definitions" ("group_set_id");`);
    this.addSql(`create index "task_definitions_overseer_image_id_index" on "task_definitions" ("overseer_image_id");`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_unit_id_abbreviation_unique" unique ("unit_id", "abbreviation");`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_unit_id_name_unique" unique ("unit_id", "name");`);

    this.addSql(`create table "simcheck_group_attachments" (
      "id" serial primary key,
      "task_definition_id" int not null,
      "filename" varchar(255) not null,
      "remote_id" varchar(255) null,
      "file_sha1" varchar(40) not null,
      "status" varchar(64) not null default 'created'
    );`);
    this.addSql(`create index "simcheck_group_attachments_task_definition_id_index" on "simcheck_group_attachments" ("task_definition_id");`);

    this.addSql(`create table "tutorials" (
      "id" serial primary key,
      "unit_id" int not null,
      "campus_id" int null,
      "tutorial_stream_id" int null,
      "tutor_id" int null,
      "abbreviation" varchar(255) not null,
      "meeting_day" varchar(255) not null,
      "meeting_time" varchar(255) not null,
      "meeting_location" varchar(255) not null,
      "capacity" int not null default -1
    );`);
    this.addSql(`create index "tutorials_unit_id_index" on "tutorials" ("unit_id");`);
    this.addSql(`create index "tutorials_campus_id_index" on "tutorials" ("campus_id");`);
    this.addSql(`create index "tutorials_tutorial_stream_id_index" on "tutorials" ("tutorial_stream_id");`);
    this.addSql(`create index "tutorials_tutor_id_index" on "tutorials" ("tutor_id");`);
    this.addSql(`alter table "tutorials" add constraint "tutorials_unit_id_abbreviation_unique" unique ("unit_id", "abbreviation");`);

    this.addSql(`create table "groups" (
      "id" serial primary key,
      "group_set_id" int not null,
      "tutorial_id" int not null,
      "name" varchar(255) not null,
      "capacity_adjustment" int not null default 0,
      "locked" boolean not null default false
    );`);
    this.addSql(`create index "groups_group_set_id_index" on "groups" ("group_set_id");`);
    this.addSql(`create index "groups_tutorial_id_index" on "groups" ("tutorial_id");`);
    this.addSql(`alter table "groups" add constraint "groups_group_set_id_name_unique" unique ("group_set_id", "name");`);

    this.addSql(`create table "projects" (
      "id" serial primary key,
      "unit_id" int not null,
      "user_id" int not null,
      "campus_id" int null,
      "enrolled" boolean not null default true,
      "target_grade" int not null default 0,
      "submitted_grade" int null,
      "grade" int null,
      "grade_rationale" text null,
      "compile_portfolio" boolean not null default false,
      "portfolio_production_date" timestamptz null,
      "portfolio_auto_generated" boolean not null default false,
      "uses_draft_learning_summary" boolean not null default false,
      "task_stats" jsonb not null default '{"red_pct":0,"grey_pct":1,"orange_pct":0,"blue_pct":0,"green_pct":0,"order_scale":0}',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "projects_unit_id_index" on "projects" ("unit_id");`);
    this.addSql(`create index "projects_user_id_index" on "projects" ("user_id");`);
    this.addSql(`create index "projects_campus_id_index" on "projects" ("campus_id");`);
    this.addSql(`alter table "projects" add constraint "projects_unit_id_user_id_unique" unique ("unit_id", "user_id");`);

    this.addSql(`create table "tutorial_enrolments" (
      "id" serial primary key,
      "project_id" int not null,
      "tutorial_id" int not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "tutorial_enrolments_project_id_index" on "tutorial_enrolments" ("project_id");`);
    this.addSql(`create index "tutorial_enrolments_tutorial_id_index" on "tutorial_enrolments" ("tutorial_id");`);
    this.addSql(`alter table "tutorial_enrolments" add constraint "tutorial_enrolments_project_id_tutorial_id_unique" unique ("project_id", "tutorial_id");`);

    this.addSql(`create table "group_submissions" (
      "id" serial primary key,
      "group_id" int not null,
      "task_definition_id" int not null,
      "submitted_by_id" int null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "group_submissions_group_id_index" on "group_submissions" ("group_id");`);
    this.addSql(`create index "group_submissions_task_definition_id_index" on "group_submissions" ("task_definition_id");`);
    this.addSql(`create index "group_submissions_submitted_by_id_index" on "group_submissions" ("submitted_by_id");`);

    this.addSql(`create table "tasks" (
      "id" serial primary key,
      "project_id" int not null,
      "task_definition_id" int not null,
      "group_submission_id" int null,
      "status" text not null default 'not_started',
      "extensions" int not null default 0,
      "times_assessed" int not null default 0,
      "grade" int null,
      "quality_pts" int null,
      "include_in_portfolio" boolean not null default true,
      "submission_date" timestamptz null,
      "assessment_date" timestamptz null,
      "completion_date" date null,
      "file_uploaded_at" timestamptz null,
      "pdf_path" varchar(1024) null,
      "contribution_pct" int null,
      "contribution_pts" int null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "tasks_task_definition_id_index" on "tasks" ("task_definition_id");`);
    this.addSql(`create index "tasks_group_submission_id_index" on "tasks" ("group_submission_id");`);
    this.addSql(`create index "tasks_status_index" on "tasks" ("status");`);
    this.addSql(`alter table "tasks" add constraint "tasks_project_id_task_definition_id_unique" unique ("project_id", "task_definition_id");`);
    this.addSql(`alter table "tasks" add constraint "tasks_status_check" check ("status" in (
      'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate',
      'fail', 'time_exceeded'
    ));`);

    this.addSql(`create table "task_submissions" (
      "id" serial primary key,
      "task_id" int not null,
      "submitted_by_id" int null,
      "submitted_at" timestamptz not null,
      "assessor_id" int null,
      "assessed_at" timestamptz null,
      "outcome" text null,
      "processing" boolean not null default true
    );`);
    this.addSql(`create index "task_submissions_submitted_by_id_index" on "task_submissions" ("submitted_by_id");`);
    this.addSql(`create index "task_submissions_assessor_id_index" on "task_submissions" ("assessor_id");`);
    this.addSql(`create index "task_submissions_task_id_submitted_at_index" on "task_submissions" ("task_id", "submitted_at");`);
    this.addSql(`alter table "task_submissions" add constraint "task_submissions_outcome_check" check ("outcome" in (
      'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate',
      'fail', 'time_exceeded'
    ));`);

    this.addSql(`create table "submission_files" (
      "id" serial primary key,
      "submission_id" int not null,
      "idx" int not null,
      "key" varchar(64) not null,
      "name" varchar(255) not null,
      "kind" text not null,
      "original_filename" varchar(255) not null,
      "content_type" varchar(255) not null,
      "size_bytes" int not null,
      "storage_path" varchar(1024) not null
    );`);
    this.addSql(`create index "submission_files_submission_id_index" on "submission_files" ("submission_id");`);
    this.addSql(`alter table "submission_files" add constraint "submission_files_kind_check" check ("kind" in ('document', 'code', 'image'));`);

    this.addSql(`create table "task_pins" ("id" serial primary key, "task_id" int not null, "user_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "task_pins_user_id_index" on "task_pins" ("user_id");`);
    this.addSql(`alter table "task_pins" add constraint "task_pins_task_id_user_id_unique" unique ("task_id", "user_id");`);

    this.addSql(`create table "simcheck_submissions" (
      "id" serial primary key,
      "task_id" int not null,
      "submitter_id" int null,
      "idx" int not null,
      "filename" varchar(255) not null,
      "remote_id" varchar(255) null,
      "status" varchar(64) not null default 'created',
      "similarity_pct" int null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "simcheck_submissions_task_id_index" on "simcheck_submissions" ("task_id");`);
    this.addSql(`create index "simcheck_submissions_submitter_id_index" on "simcheck_submissions" ("submitter_id");`);

    this.addSql(`create table "task_similarities" (
      "id" serial primary key,
      "task_id" int not null,
      "kind" text not null,
      "pct" int not null,
      "flagged" boolean not null default false,
      "other_task_id" int null,
      "report_path" varchar(1024) null,
      "report_url" varchar(1024) null,
      "simcheck_submission_id" int null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "task_similarities_task_id_index" on "task_similarities" ("task_id");`);
    this.addSql(`create index "task_similarities_other_task_id_index" on "task_similarities" ("other_task_id");`);
    this.addSql(`create index "task_similarities_simcheck_submission_id_index" on "task_similarities" ("simcheck_submission_id");`);
    this.addSql(`alter table "task_similarities" add constraint "task_similarities_kind_check" check ("kind" in ('moss', 'simcheck'));`);

    this.addSql(`create table "overseer_assessments" (
      "id" serial primary key,
      "task_id" int not null,
      "submission_timestamp" timestamptz not null,
      "status" text not null default 'pre_queued',
      "result_task_status" text null,
      "output_path" varchar(1024) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`alter table "overseer_assessments" add constraint "overseer_assessments_task_id_submission_timestamp_unique"
      unique ("task_id", "submission_timestamp");`);
    this.addSql(`alter table "overseer_assessments" add constraint "overseer_assessments_status_check"
      check ("status" in ('pre_queued', 'queued', 'queue_failed', 'done'));`);
    this.addSql(`alter table "overseer_assessments" add constraint "overseer_assessments_result_task_status_check" check ("result_task_status" in (
      'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate',
      'fail', 'time_exceeded'
    ));`);

    this.addSql(`create table "task_comments" (
      "id" serial primary key,
      "task_id" int not null,
      "author_id" int not null,
      "recipient_id" int null,
      "kind" text not null default 'text',
      "comment" text null,
      "reply_to_id" int null,
      "attachment_path" varchar(1024) null,
      "attachment_content_type" varchar(255) null,
      "task_status" text null,
      "extension_weeks_requested" int null,
      "extension_granted" boolean null,
      "extension_assessed_at" timestamptz null,
      "extension_assessor_id" int null,
      "extension_response" text null,
      "discussion_started_at" timestamptz null,
      "discussion_completed_at" timestamptz null,
      "discussion_prompt_count" int null,
      "overseer_assessment_id" int null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "task_comments_author_id_index" on "task_comments" ("author_id");`);
    this.addSql(`create index "task_comments_recipient_id_index" on "task_comments" ("recipient_id");`);
    this.addSql(`create index "task_comments_reply_to_id_index" on "task_comments" ("reply_to_id");`);
    this.addSql(`create index "task_comments_extension_assessor_id_index" on "task_comments" ("extension_assessor_id");`);
    this.addSql(`create index "task_comments_overseer_assessment_id_index" on "task_comments" ("overseer_assessment_id");`);
    this.addSql(`create index "task_comments_task_id_created_at_index" on "task_comments" ("task_id", "created_at");`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_kind_check"
      check ("kind" in ('text', 'image', 'audio', 'pdf', 'status', 'extension', 'discussion', 'assessment'));`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_task_status_check" check ("task_status" in (
      'not_started', 'complete', 'need_help', 'working_on_it', 'fix_and_resubmit', 'feedback_exceeded', 'redo', 'discuss', 'ready_for_feedback', 'demonstrate',
      'fail', 'time_exceeded'
    ));`);

    this.addSql(`create table "learning_alignments" (
      "id" serial primary key,
      "task_definition_id" int not null,
      "learning_outcome_id" int not null,
      "task_id" int null,
      "rating" int not null,
      "description" text null
    );`);
    this.addSql(`create index "learning_alignments_task_definition_id_index" on "learning_alignments" ("task_definition_id");`);
    this.addSql(`create index "learning_alignments_learning_outcome_id_index" on "learning_alignments" ("learning_outcome_id");`);
    this.addSql(`create index "learning_alignments_task_id_index" on "learning_alignments" ("task_id");`);

    this.addSql(`create table "group_memberships" (
      "id" serial primary key,
      "group_id" int not null,
      "project_id" int not null,
      "active" boolean not null default true,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "group_memberships_group_id_index" on "group_memberships" ("group_id");`);
    this.addSql(`create index "group_memberships_project_id_index" on "group_memberships" ("project_id");`);

    this.addSql(`create table "comment_read_receipts" (
      "id" serial primary key,
      "comment_id" int not null,
      "user_id" int not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "comment_read_receipts_user_id_index" on "comment_read_receipts" ("user_id");`);
    this.addSql(`alter table "comment_read_receipts" add constraint "comment_read_receipts_comment_id_user_id_unique" unique ("comment_id", "user_id");`);

    this.addSql(`create table "auth_tokens" (
      "id" serial primary key,
      "user_id" int not null,
      "token_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "auth_tokens_user_id_index" on "auth_tokens" ("user_id");`);
    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "auth_tokens_expires_at_index" on "auth_tokens" ("expires_at");`);

    this.addSql(`create table "webcals" (
      "id" serial primary key,
      "user_id" int not null,
      "guid" varchar(64) not null,
      "include_start_dates" boolean not null default false,
      "reminder_time" int null,
      "reminder_unit" text null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`alter table "webcals" add constraint "webcals_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "webcals" add constraint "webcals_guid_unique" unique ("guid");`);
    this.addSql(`alter table "webcals" add constraint "webcals_reminder_unit_check" check ("reminder_unit" in ('w', 'd', 'h', 'm'));`);

    this.addSql(`create table "webcal_unit_exclusions" ("id" serial primary key, "webcal_id" int not null, "unit_id" int not null);`);
    this.addSql(`create index "webcal_unit_exclusions_unit_id_index" on "webcal_unit_exclusions" ("unit_id");`);
    this.addSql(`alter table "webcal_unit_exclusions" add constraint "webcal_unit_exclusions_webcal_id_unit_id_unique" unique ("webcal_id", "unit_id");`);

    this.addSql(`alter table "breaks" add constraint "breaks_teaching_period_id_foreign"
      foreign key ("teaching_period_id") references "teaching_periods" ("id") on delete cascade;`);

    this.addSql(`alter table "units" add constraint "units_teaching_period_id_foreign"
      foreign key ("teaching_period_id") references "teaching_periods" ("id") on delete restrict;`);
    this.addSql(`alter table "units" add constraint "units_main_convenor_id_foreign"
      foreign key ("main_convenor_id") references "unit_roles" ("id") on delete set null;`);
    this.addSql(`alter table "units" add constraint "units_overseer_image_id_foreign"
      foreign key ("overseer_image_id") references "overseer_images" ("id") on delete restrict;`);
    this.addSql(`alter table "units" add constraint "units_draft_task_definition_id_foreign"
      foreign key ("draft_task_definition_id") references "task_definitions" ("id") on delete set null;`);

    this.addSql(`alter table "unit_roles" add constraint "unit_roles_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "unit_roles" add constraint "unit_roles_unit_id_foreign" foreign key ("unit_id") references "units" ("id") on delete cascade;`);

    this.addSql(`alter table "tutorial_streams" add constraint "tutorial_streams_unit_id_foreign"
      foreign key ("unit_id") references "units" ("id") on delete cascade;`);
    this.addSql(`alter table "tutorial_streams" add constraint "tutorial_streams_activity_type_id_foreign"
      foreign key ("activity_type_id") references "activity_types" ("id");`);

    this.addSql(`alter table "simcheck_actions" add constraint "simcheck_actions_unit_id_foreign"
      foreign key ("unit_id") references "units" ("id") on delete cascade;`);

    this.addSql(`alter table "learning_outcomes" add constraint "learning_outcomes_unit_id_foreign"
      foreign key ("unit_id") references "units" ("id") on delete cascade;`);

    this.addSql(`alter table "group_sets" add constraint "group_sets_unit_id_foreign" foreign key ("unit_id") references "units" ("id") on delete cascade;`);

    this.addSql(`alter table "task_definitions" add constraint "task_definitions_unit_id_foreign"
      foreign key ("unit_id") references "units" ("id") on delete cascade;`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_tutorial_stream_id_foreign"
      foreign key ("tutorial_stream_id") references "tutorial_streams" ("id") on delete set null;`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_group_set_id_foreign"
      foreign key ("group_set_id") references "group_sets" ("id") on delete set null;`);
    this.addSql(`alter table "task_definitions" add constraint "task_definitions_overseer_image_id_foreign"
      foreign key ("overseer_image_id") references "overseer_images" ("id") on delete restrict;`);

    this.addSql(`alter table "simcheck_group_attachments" add constraint "simcheck_group_attachments_task_definition_id_foreign"
      foreign key ("task_definition_id") references "task_definitions" ("id") on delete cascade;`);

    this.addSql(`alter table "tutorials" add constraint "tutorials_unit_id_foreign" foreign key ("unit_id") references "units" ("id") on delete cascade;`);
    this.addSql(`alter table "tutorials" add constraint "tutorials_campus_id_foreign"
      foreign key ("campus_id") references "campuses" ("id") on delete restrict;`);
    this.addSql(`alter table "tutorials" add constraint "tutorials_tutorial_stream_id_foreign"
      foreign key ("tutorial_stream_id") references "tutorial_streams" ("id") on delete cascade;`);
    this.addSql(`alter table "tutorials" add constraint "tutorials_tutor_id_foreign"
      foreign key ("tutor_id") references "unit_roles" ("id") on delete set null;`);

    this.addSql(`alter table "groups" add constraint "groups_group_set_id_foreign"
      foreign key ("group_set_id") references "group_sets" ("id") on delete cascade;`);
    this.addSql(`alter table "groups" add constraint "groups_tutorial_id_foreign" foreign key ("tutorial_id") references "tutorials" ("id");`);

    this.addSql(`alter table "projects" add constraint "projects_unit_id_foreign" foreign key ("unit_id") references "units" ("id") on delete cascade;`);
    this.addSql(`alter table "projects" add constraint "projects_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "projects" add constraint "projects_campus_id_foreign"
      foreign key ("campus_id") references "campuses" ("id") on delete restrict;`);

    this.addSql(`alter table "tutorial_enrolments" add constraint "tutorial_enrolments_project_id_foreign"
      foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "tutorial_enrolments" add constraint "tutorial_enrolments_tutorial_id_foreign"
      foreign key ("tutorial_id") references "tutorials" ("id") on delete cascade;`);

    this.addSql(`alter table "group_submissions" add constraint "group_submissions_group_id_foreign"
      foreign key ("group_id") references "groups" ("id") on delete cascade;`);
    this.addSql(`alter table "group_submissions" add constraint "group_submissions_task_definition_id_foreign"
      foreign key ("task_definition_id") references "task_definitions" ("id") on delete cascade;`);
    this.addSql(`alter table "group_submissions" add constraint "group_submissions_submitted_by_id_foreign"
      foreign key ("submitted_by_id") references "projects" ("id") on delete set null;`);

    this.addSql(`alter table "tasks" add constraint "tasks_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_task_definition_id_foreign"
      foreign key ("task_definition_id") references "task_definitions" ("id") on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_group_submission_id_foreign"
      foreign key ("group_submission_id") references "group_submissions" ("id") on delete set null;`);

    this.addSql(`alter table "task_submissions" add constraint "task_submissions_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);
    this.addSql(`alter table "task_submissions" add constraint "task_submissions_submitted_by_id_foreign"
      foreign key ("submitted_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "task_submissions" add constraint "task_submissions_assessor_id_foreign"
      foreign key ("assessor_id") references "users" ("id") on delete set null;`);

    this.addSql(`alter table "submission_files" add constraint "submission_files_submission_id_foreign"
      foreign key ("submission_id") references "task_submissions" ("id") on delete cascade;`);

    this.addSql(`alter table "task_pins" add constraint "task_pins_task_id_foreign" foreign key ("task_id") references "tasks" ("id") on delete cascade;`);
    this.addSql(`alter table "task_pins" add constraint "task_pins_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "simcheck_submissions" add constraint "simcheck_submissions_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);
    this.addSql(`alter table "simcheck_submissions" add constraint "simcheck_submissions_submitter_id_foreign"
      foreign key ("submitter_id") references "users" ("id") on delete set null;`);

    this.addSql(`alter table "task_similarities" add constraint "task_similarities_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);
    this.addSql(`alter table "task_similarities" add constraint "task_similarities_other_task_id_foreign"
      foreign key ("other_task_id") references "tasks" ("id") on delete set null;`);
    this.addSql(`alter table "task_similarities" add constraint "task_similarities_simcheck_submission_id_foreign"
      foreign key ("simcheck_submission_id") references "simcheck_submissions" ("id") on delete set null;`);

    this.addSql(`alter table "overseer_assessments" add constraint "overseer_assessments_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);

    this.addSql(`alter table "task_comments" add constraint "task_comments_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_author_id_foreign" foreign key ("author_id") references "users" ("id");`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_recipient_id_foreign"
      foreign key ("recipient_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_reply_to_id_foreign"
      foreign key ("reply_to_id") references "task_comments" ("id") on delete set null;`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_extension_assessor_id_foreign"
      foreign key ("extension_assessor_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "task_comments" add constraint "task_comments_overseer_assessment_id_foreign"
      foreign key ("overseer_assessment_id") references "overseer_assessments" ("id") on delete set null;`);

    this.addSql(`alter table "learning_alignments" add constraint "learning_alignments_task_definition_id_foreign"
      foreign key ("task_definition_id") references "task_definitions" ("id") on delete cascade;`);
    this.addSql(`alter table "learning_alignments" add constraint "learning_alignments_learning_outcome_id_foreign"
      foreign key ("learning_outcome_id") references "learning_outcomes" ("id") on delete cascade;`);
    this.addSql(`alter table "learning_alignments" add constraint "learning_alignments_task_id_foreign"
      foreign key ("task_id") references "tasks" ("id") on delete cascade;`);

    this.addSql(`alter table "group_memberships" add constraint "group_memberships_group_id_foreign"
      foreign key ("group_id") references "groups" ("id") on delete cascade;`);
    this.addSql(`alter table "group_memberships" add constraint "group_memberships_project_id_foreign"
      foreign key ("project_id") references "projects" ("id") on delete cascade;`);

    this.addSql(`alter table "comment_read_receipts" add constraint "comment_read_receipts_comment_id_foreign"
      foreign key ("comment_id") references "task_comments" ("id") on delete cascade;`);
    this.addSql(`alter table "comment_read_receipts" add constraint "comment_read_receipts_user_id_foreign"
      foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "webcals" add constraint "webcals_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "webcal_unit_exclusions" add constraint "webcal_unit_exclusions_webcal_id_foreign"
      foreign key ("webcal_id") references "webcals" ("id") on delete cascade;`);
    this.addSql(`alter table "webcal_unit_exclusions" add constraint "webcal_unit_exclusions_unit_id_foreign"
      foreign key ("unit_id") references "units" ("id") on delete cascade;`);
  }
}
