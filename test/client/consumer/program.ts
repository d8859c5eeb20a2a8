// A consumer of the client package (test/client/package.test.ts compiles it in a scratch project
// that has only the packed tarball, @trpc/client, @trpc/server, eventsource and @types/node, then
// runs it against a live service). Each step prints one JSON line for the test to read.
// Not part of the project's own type-check (tsconfig.json excludes test/client/consumer).
import { EventSource } from 'eventsource';
import { CourseServiceError, createRestClient, multipart, signIn, type RouterOutputs } from 'course-service/client';

const [baseUrl, convenorName, studentName, password, projectArg, taskDefArg] = process.argv.slice(2) as [string, string, string, string, string, string];
const say = (step: string, value: unknown) => console.log(JSON.stringify({ step, value }));

// Sign in (POST /api/auth); the client keeps the password to sign in again on a 419.
const convenor = await signIn(baseUrl, { username: convenorName, password }, { EventSource });
say('signed in', convenor.user.username);
const wrong = await signIn(baseUrl, { username: convenorName, password: 'not the password' }).catch((e: unknown) => e);
say('wrong password', wrong instanceof CourseServiceError ? [wrong.status, wrong.error] : String(wrong));

// List units (tRPC query, batched over HTTP).
const units: RouterOutputs['units']['list'] = await convenor.units.list.query({});
say(
  'units',
  units.map((unit) => unit.code),
);
// @ts-expect-error a misspelt input field
await convenor.units.list.query({ include_in_activ: true }).catch(() => undefined);
// @ts-expect-error an output field the procedure does not have
say('no such field', units[0]?.unit_cod);
const unit = units[0]!;

// Subscribe to the unit's inbox (tRPC subscription over server-sent events).
const heard: string[] = [];
let started!: () => void;
let gotOne!: () => void;
const ready = new Promise<void>((resolve) => (started = resolve));
const event = new Promise<void>((resolve) => (gotOne = resolve));
const subscription = convenor.units.inboxChanges.subscribe(
  { id: unit.id },
  {
    onStarted: () => started(),
    onData: ({ data }) => {
      if (data.type !== 'event') return;
      heard.push(`${data.kind} of task ${data.taskId}`);
      gotOne();
    },
    onError: (error) => say('subscription error', String(error)),
  },
);
await ready;

// Upload a submission (REST multipart through the typed fetch: tRPC carries no files).
const student = await signIn(baseUrl, { username: studentName, password });
const refused = await student.units.list.query({}).catch((e: unknown) => e);
say('student lists units', refused instanceof CourseServiceError ? refused.status : String(refused));
const uploaded = await student.$rest.POST('/api/projects/{id}/task_def_id/{task_definition_id}/submission', {
  params: { path: { id: Number(projectArg), task_definition_id: Number(taskDefArg) } },
  body: { trigger: 'ready_for_feedback', file0: new File(['print("hello")\n'], 'main.py', { type: 'text/x-python' }) },
  bodySerializer: multipart,
});
say('uploaded', [uploaded.response.status, uploaded.data?.status]);
await Promise.race([event, new Promise((resolve) => setTimeout(resolve, 10_000))]);
subscription.unsubscribe();
say('inbox', heard);

// REST through the typed fetch, with credentials given directly.
const rest = createRestClient({ baseUrl, username: student.$session.username, authToken: student.$session.authToken });
const projects = await rest.GET('/api/projects', { params: { query: { include_inactive: false } } });
say(
  'projects',
  projects.data?.map((project) => [project.id, project.unit.code]),
);
const missing = await rest.GET('/api/units/{id}', { params: { path: { id: 999_999 } } });
say('missing unit', [missing.response.status, missing.error?.error]);
// @ts-expect-error a path the REST API does not have
await rest.GET('/api/unitz');
// @ts-expect-error a wrong field of the answer
say('no such REST field', projects.data?.[0]?.unit_code);
