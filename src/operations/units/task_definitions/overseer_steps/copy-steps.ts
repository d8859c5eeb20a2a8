// Rollover (docs/assessment-steps.md): each copied definition gets its source's assessment steps,
// never their results (tasks and assessments are not copied). One set-based statement whatever the
// number of definitions and steps.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';

/** Copies the steps of `definitionMap`'s keys (source definition ids) to its values (the copies). */
export async function copySteps(em: Em, definitionMap: ReadonlyMap<number, number>, now: Date): Promise<void> {
  if (definitionMap.size === 0) return;
  const at = now.toISOString();
  const pairs = sql.join([...definitionMap].map(([from, to]) => sql`(${from}::int, ${to}::int)`));
  await sql`insert into overseer_steps (task_definition_id, name, display_name, description, display_description, sort_order, enabled,
      step_type, run_command, timeout_ms, stdin_input_file, expected_output_file, partial_output_diff, output_comparison, feedback_message,
      status_on_success, status_on_failure, halt_on_success, halt_on_failure, show_expected_output, show_stdin, show_stdout, created_at, updated_at)
    select m.new_id, s.name, s.display_name, s.description, s.display_description, s.sort_order, s.enabled,
      s.step_type, s.run_command, s.timeout_ms, s.stdin_input_file, s.expected_output_file, s.partial_output_diff, s.output_comparison, s.feedback_message,
      s.status_on_success, s.status_on_failure, s.halt_on_success, s.halt_on_failure, s.show_expected_output, s.show_stdin, s.show_stdout,
      ${at}::timestamptz, ${at}::timestamptz
    from overseer_steps s join (values ${pairs}) as m(old_id, new_id) on m.old_id = s.task_definition_id
    order by s.id`.execute(db(em));
}
