// The demo class's work: each student hands in the first `workDefinitions` tasks, tutors assess
// most of them, and each task gets a short conversation. It goes through the task workflow's own
// operations (changeTask for every status change, insertComments for every comment), so
// statuses, dates, stats, history and read receipts follow the same rules as a request. It skips
// the HTTP and upload layers: handing in 30,000 tasks with files would take far longer, and the
// files themselves add nothing to the lists this data drives (inbox, feedback, stats).
import { db } from '../../src/db/kysely.ts';
import type { Services } from '../../src/trpc/context.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { insertComments, type NewComment } from '../../src/operations/tasks/comments.ts';
import { ensureTasks } from '../../src/operations/tasks/tasks.ts';
import { ROLE } from '../../src/policy/index.ts';

const STUDENT_SAYS = [
  'I have uploaded my work, could you check the second part?',
  'I was not sure about the edge cases here.',
  'Thanks! I have fixed that now.',
  'Could we go through this in class?',
  'I added more tests as you suggested.',
];
const TUTOR_SAYS = [
  'Good work, have a look at my notes on the loop.',
  'Nearly there: check what happens with an empty list.',
  'Well explained. Keep the same structure for the next task.',
  'Please resubmit with the missing screenshot.',
  'Let us discuss this at the start of the next class.',
];

export interface WorkOptions {
  /** Tasks each student works on: the first N definitions by target date. */
  workDefinitions: number;
  commentsPerTask: number;
}

/** A stable pseudo-random number in [0, 1) from two ids, so the demo is the same on every run. */
const mix = (a: number, b: number) => (((a * 2654435761) ^ (b * 40503)) >>> 0) / 2 ** 32;

export async function seedWork(
  services: Services,
  unitId: number,
  options: WorkOptions,
  advance: (students: number) => void,
): Promise<{ tasks: number; comments: number }> {
  const k = db(services.orm.em.fork());
  const definitions = await k
    .selectFrom('task_definitions')
    .select(['id', 'is_graded', 'tutorial_stream_id'])
    .where('unit_id', '=', unitId)
    .orderBy('target_date')
    .orderBy('id')
    .limit(options.workDefinitions)
    .execute();
  const students = await k.selectFrom('projects').select(['id', 'user_id']).where('unit_id', '=', unitId).where('enrolled', '=', true).orderBy('id').execute();
  const tutorRows = await k
    .selectFrom('tutorial_enrolments as e')
    .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
    .innerJoin('unit_roles as r', 'r.id', 't.tutor_id')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .select(['e.project_id', 't.tutorial_stream_id', 'r.user_id'])
    .where('p.unit_id', '=', unitId)
    .execute();
  const tutorOf = new Map(tutorRows.map((r) => [`${r.project_id}/${r.tutorial_stream_id}`, r.user_id]));
  let tasks = 0;
  let comments = 0;

  const one = async (student: { id: number; user_id: number }) => {
    await services.orm.em.fork().transactional(async (em) => {
      const now = services.clock.now();
      const ids = await ensureTasks(
        em,
        definitions.map((d) => ({ projectId: student.id, taskDefinitionId: d.id })),
        now,
      );
      const conversation: NewComment[] = [];
      for (const [i, d] of definitions.entries()) {
        const taskId = ids[i]!;
        const tutor = tutorOf.get(`${student.id}/${d.tutorial_stream_id}`);
        const student_ = { userId: student.user_id, role: ROLE.student };
        await changeTask(em, taskId, { actor: student_, change: { kind: 'trigger', target: 'ready_for_feedback' } }, now);
        const roll = mix(student.id, d.id);
        if (tutor !== undefined && roll < 0.65) {
          const target = roll < 0.4 ? 'complete' : roll < 0.55 ? 'fix_and_resubmit' : 'discuss';
          const grade = d.is_graded && target !== 'fix_and_resubmit' ? Math.floor(mix(d.id, student.id) * 4) : undefined;
          await changeTask(em, taskId, { actor: { userId: tutor, role: ROLE.tutor }, change: { kind: 'trigger', target }, grade }, now);
        }
        for (let c = 0; c < options.commentsPerTask; c++) {
          const byStudent = c % 2 === 0 || tutor === undefined;
          const author = byStudent ? student.user_id : tutor!;
          const says = byStudent ? STUDENT_SAYS : TUTOR_SAYS;
          conversation.push({
            taskId,
            authorId: author,
            recipientId: byStudent ? (tutor ?? null) : student.user_id,
            kind: 'text',
            comment: says[(student.id + d.id + c) % says.length]!,
          });
        }
      }
      await insertComments(em, conversation, now);
      tasks += ids.length;
      comments += conversation.length;
    });
    advance(1);
  };

  // Two students at a time: one per core, with the database on the same machine.
  for (let i = 0; i < students.length; i += 2) await Promise.all(students.slice(i, i + 2).map(one));
  return { tasks, comments };
}
