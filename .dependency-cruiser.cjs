// The layer rules of docs/architecture.md, checked by `npm run deps` (and by `npm test`).
// Imports run one way: compat and src/routers → src/operations → src/domain, src/policy, schema,
// src/storage and the other engines; workers → src/operations. Only the app's wiring
// (src/app.ts, src/openapi.ts, src/service.ts, src/main.ts) reaches across.
const WIRING = '^src/(app|openapi|service|main)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'routers-only-through-the-index',
      comment: 'Nothing outside src/routers imports a procedure; scripts and the wiring use the router index.',
      severity: 'error',
      from: { path: '^(src|compat|workers|schema|scripts)/', pathNot: ['^src/routers/', WIRING] },
      to: { path: '^src/routers/', pathNot: '^src/routers/index\\.ts$' },
    },
    {
      name: 'router-index-only-for-wiring',
      comment: 'Only the wiring and scripts (which act as a user) take the whole router.',
      severity: 'error',
      from: { path: '^(src|compat|workers|schema)/', pathNot: ['^src/routers/', '^src/client/', WIRING] },
      to: { path: '^src/routers/index\\.ts$' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'The client package (src/client) ships without the server: it takes only the router index, and only its type (src/client/router.ts).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^(src/(?!client/)|compat/|workers/|schema/)', pathNot: '^src/routers/index\\.ts$' },
    },
    {
      name: 'client-router-type-only',
      comment: "The client's one import of the server is a type: its JavaScript never loads the server.",
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/routers/index\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routers-not-sideways',
      comment: "A resource's procedures import another resource's shared schemas, never its procedures or helpers.",
      severity: 'error',
      from: { path: '^src/routers/([^/]+)/', pathNot: '/index\\.ts$' },
      to: { path: '^src/routers/', pathNot: ['^src/routers/$1/', '/schemas\\.ts$'] },
    },
    {
      name: 'operations-not-up',
      comment: 'Operations are called by procedures, workers, the CLI and integrations; they call none of them.',
      severity: 'error',
      from: { path: '^src/operations/' },
      to: { path: '^(src/routers/|compat/|workers/|src/trpc/)' },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain holds pure rules: it imports only itself and libraries.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^(src/(?!domain/)|schema/|compat/|workers/|scripts/)' },
    },
    {
      name: 'lib-is-library',
      comment: 'src/lib holds libraries: no database, permissions, entities or work; only pure rules and the settings type.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^(src/(?!lib/|domain/|config\\.ts$)|schema/|compat/|workers/|scripts/)' },
    },
    {
      name: 'live-hub-not-up',
      comment: 'src/live (the LISTEN hub and the streams) shares only the event vocabulary (src/domain/live-events.ts) with the operations that publish.',
      severity: 'error',
      from: { path: '^src/live/' },
      to: { path: '^(src/(operations|routers)/|compat/|workers/)' },
    },
    {
      name: 'policy-below-operations',
      comment: 'src/policy answers who may do what; it knows records and rules, not callers.',
      severity: 'error',
      from: { path: '^src/policy/' },
      to: { path: '^(src/(routers|operations|pdf|threads|trpc)/|compat/|workers/)' },
    },
    {
      name: 'schema-at-the-bottom',
      comment: 'Entities and migrations import only pure domain constants.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(src/(?!domain/)|compat/|workers/|scripts/)' },
    },
    {
      name: 'mail-below-operations',
      comment: 'src/mail holds what a mail is (payload, templates) and how it is queued; composing one (queries, operations) is in src/operations/mail.',
      severity: 'error',
      from: { path: '^src/mail/' },
      to: { path: '^(src/(routers|operations|policy|trpc)/|src/db/(kysely|task-list)\\.ts$|compat/|workers/|scripts/)' },
    },
    {
      name: 'workers-call-operations',
      comment: 'Jobs call operations, never procedures or the tRPC machinery.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(src/routers/|compat/|src/trpc/)' },
    },
    {
      name: 'no-transport-below-procedures',
      comment:
        'Operations, jobs, the rules, the policy and the engines under them belong to no transport: they raise AppError ' +
        '(src/lib/errors.ts), which src/trpc maps to TRPCError and compat to the legacy statuses. Neither src/trpc nor @trpc/server.',
      severity: 'error',
      from: { path: '^(src/(operations|domain|policy|lib|db|storage|pdf|threads|adapters|live|mail|config)/|workers/)' },
      to: { path: '^src/trpc/|(^|/)node_modules/@trpc/' },
    },
    {
      name: 'workers-hold-no-queries',
      comment: "A job's statements are operation work: jobs reach the database through operations (and the queue's own rows through src/db/job-locks.ts).",
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(src/db/(kysely|task-list)\\.ts$|schema/)|(^|/)node_modules/kysely/' },
    },
    {
      name: 'src-not-into-workers-or-compat',
      comment: 'Adapters to the outside live in src/adapters, usable by both; only the wiring starts workers and the REST layer.',
      severity: 'error',
      from: { path: '^src/', pathNot: WIRING },
      to: { path: '^(workers|compat)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};
