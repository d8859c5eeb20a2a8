// What one GET /metrics costs on an API that has seen traffic on every route: each REST route of
// the compatibility layer asked a few times (as the Admin, ids that mostly do not exist, so 2xx and
// 4xx series both appear) and every tRPC procedure called once by name, then scraped 30 times.
// Prints the scrape's time (median, p95) and size, and how many HTTP series there are: the figure
// in docs/operating/metrics.md. `npm run bench -- metrics-scrape`.
import { appRouter } from '../../src/routers/index.ts';
import { restRoutes } from '../../src/trpc/rest-routes.ts';
import { withBench } from './setup.ts';
import { median, quantile } from './support.ts';

const SCRAPES = 30;

await withBench(
  async () => {},
  async ({ service, headers }) => {
    const routes = restRoutes(appRouter);
    let requests = 0;
    for (let round = 0; round < 3; round++) {
      for (const route of routes) {
        const url = route.url.replace(/:[A-Za-z_]+/g, String(round + 1));
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
        await fetch(`${service}${url}`, { method: route.method, headers: { ...headers, 'content-type': 'application/json' }, body }).then((r) =>
          r.arrayBuffer(),
        );
        requests++;
      }
    }
    const procedures = Object.keys(appRouter._def.procedures);
    for (const name of procedures) {
      await fetch(`${service}/trpc/${name}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }).then((r) =>
        r.arrayBuffer(),
      );
      requests++;
    }

    const times: number[] = [];
    let bytes = 0;
    let text = '';
    for (let i = 0; i < SCRAPES; i++) {
      const started = performance.now();
      const res = await fetch(`${service}/metrics`);
      const body = Buffer.from(await res.arrayBuffer());
      times.push(performance.now() - started);
      bytes = body.length;
      text = body.toString();
    }
    const series = (name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `)).length;
    const routesSeen = new Set([...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1])).size;
    console.log(
      `metrics_scrape: ${requests} requests on ${routes.length} REST routes and ${procedures.length} tRPC procedures before; ` +
        `one scrape ${median(times).toFixed(1)} ms median, ${quantile(times, 0.95).toFixed(1)} ms p95 (n=${SCRAPES}), ` +
        `${(bytes / 1024).toFixed(0)} KiB (${bytes} bytes, ${text.split('\n').length} lines); ` +
        `${series('http_request_duration_seconds_count')} HTTP series over ${routesSeen} route patterns`,
    );
  },
);
