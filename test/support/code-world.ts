// A unit whose task definition takes one code file, three students who hand in Python programs
// (two of them the same program with renamed identifiers, comments and spacing changed), and the
// code-similarity job run for real: for the code-similarity worker and similarity REST tests.
import { db } from '../../src/db/kysely.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import type { TestEnv } from './env.ts';
import type { Actor, People } from './fixtures.ts';
import { api } from './http.ts';
import { runJobs } from './jobs.ts';
import { anotherStudent, taskWorld, type TaskWorld } from './task-world.ts';

export const ORIGINAL = `# Word frequency report
import sys

def read_words(path):
    """Every word of the file, lower case."""
    words = []
    with open(path) as handle:
        for line in handle:
            for word in line.split():
                cleaned = word.strip('.,;:!?"()').lower()
                if cleaned:
                    words.append(cleaned)
    return words

def count_words(words):
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return counts

def top(counts, n):
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:n]

def main():
    if len(sys.argv) < 2:
        print("usage: words.py FILE [N]")
        return 1
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    for word, count in top(count_words(read_words(sys.argv[1])), n):
        print(f"{word:20} {count:5}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
`;

/** The same program: identifiers renamed, comments and spacing changed, one string reworded. */
export const DISGUISED = ORIGINAL.replace(/# Word frequency report/, '# my own solution, written by me')
  .replace(/read_words/g, 'load_tokens')
  .replace(/count_words/g, 'tally')
  .replace(/\bwords\b/g, 'tokens')
  .replace(/\bword\b/g, 'tok')
  .replace(/\bcounts\b/g, 'freq')
  .replace(/\bhandle\b/g, 'fh')
  .replace(/\branked\b/g, 'ordered')
  .replace(/"""Every word of the file, lower case."""/, '# read it all')
  .replace(/usage: words.py FILE \[N\]/, 'Usage: give a file name')
  .replace(/ {4}/g, '  ');

/** A different program for the same task. */
export const INDEPENDENT = `import sys
from collections import Counter


class Report:
    def __init__(self, limit):
        self.limit = limit
        self.counter = Counter()

    def feed(self, text):
        token = ''
        for ch in text:
            if ch.isalpha():
                token += ch.lower()
            elif token:
                self.counter[token] += 1
                token = ''
        if token:
            self.counter[token] += 1

    def show(self):
        for name, total in self.counter.most_common(self.limit):
            print(name.ljust(20), str(total).rjust(5))


if __name__ == '__main__':
    report = Report(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    with open(sys.argv[1]) as source:
        report.feed(source.read())
    report.show()
`;

export interface CodeWorld extends TaskWorld {
  /** The three students: the original's author, the disguised copy's and the independent one's. */
  students: { actor: Actor; project: number }[];
  /** Their tasks, in that order, once handed in. */
  tasks: number[];
}

export const codePart = (text: string, filename = 'words.py') => ({ filename, contentType: 'text/x-python', data: Buffer.from(text) });

/** Hands in `text` as the student's code; answers the task id. */
export async function handIn(env: TestEnv, world: TaskWorld, who: { actor: Actor; project: number }, text: string, filename?: string): Promise<number> {
  const res = await api(env, 'POST', `/api/projects/${who.project}/task_def_id/${world.td}/submission`, {
    as: who.actor.creds,
    multipart: { file0: codePart(text, filename) },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.body.id as number;
}

/** The world with the three programs handed in (before the definition's target date is over: not compared yet). */
export async function codeWorld(env: TestEnv, people: People, warnPct = 50, programs = [ORIGINAL, DISGUISED, INDEPENDENT]): Promise<CodeWorld> {
  const world = await taskWorld(env, people, { uploadRequirements: [{ key: 'file0', name: 'Program', type: 'code' }] });
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ plagiarism_warn_pct: warnPct }).where('id', '=', world.td).execute();
  const students = [
    { actor: people.student, project: world.project },
    await anotherStudent(env, world, 'bstudent'),
    await anotherStudent(env, world, 'cstudent'),
  ];
  const tasks: number[] = [];
  // No programs: the students are enrolled and nothing is handed in yet.
  for (const [i, who] of students.entries()) if (programs[i] !== undefined) tasks.push(await handIn(env, world, who, programs[i]));
  return { ...world, students, tasks };
}

/** Queues and runs the code-similarity job of the definition. */
export async function compareDefinition(env: TestEnv, td: number): Promise<void> {
  await jobQueue(env.orm.em.fork()).add('code_similarity', { taskDefinitionId: td });
  await runJobs(env);
}

/** The moss similarities of the definition's tasks, in a stable order. */
export function mossRows(env: TestEnv) {
  return db(env.orm.em.fork())
    .selectFrom('task_similarities')
    .select(['id', 'task_id', 'other_task_id', 'pct', 'flagged', 'report_path'])
    .where('kind', '=', 'moss')
    .orderBy('task_id')
    .orderBy('other_task_id')
    .execute();
}
