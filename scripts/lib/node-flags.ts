// The Node flags the service runs with, everywhere it runs: `npm start`, `npm run start:prod`,
// `npm run dev`, the image's CMD (a test checks those say the same), and the test runner's and
// the ops tests' service processes (they import this). Why (docs/operating/node-flags.md):
//
// - `--experimental-async-context-frame`: AsyncLocalStorage (the request scope of the logs,
//   MikroORM's contexts) without promise hooks. On Node 22 every promise otherwise runs an
//   init hook; this is Node 24's default. The live-updates bench's server CPU per event at 500
//   subscribers: 268 → 155 ms.
// - `--max-semi-space-size=32` (MiB, up from 16): a young generation that survives a burst of
//   short-lived objects (a deadline-night flood, an event fanned out to hundreds of streams)
//   with fewer scavenges: 268 → 200 ms in the same bench; both together 105 ms. Costs at most
//   32 MiB more of resident memory per process.
//
// Both are accepted by worker threads, which inherit them (src/threads/pool.ts).
export const NODE_FLAGS = ['--experimental-async-context-frame', '--max-semi-space-size=32'] as const;
