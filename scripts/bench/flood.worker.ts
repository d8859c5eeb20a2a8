// Worker thread body of the inbox flood (inbox-flood.bench.ts): autocannon sends `requests`
// requests at once, one per connection, each connection signed in as the next of `people`, and
// reports the result. On a thread of its own, so that reading the answers does not delay the main
// thread, which polls /api/ready meanwhile.
import autocannon from 'autocannon';
import { parentPort, workerData } from 'node:worker_threads';

const { url, requests, people } = workerData as { url: string; requests: number; people: Record<string, string>[] };
let client = 0;
const options = { url, connections: requests, amount: requests, timeout: 180 };
const raw = await autocannon({ ...options, setupClient: (c) => c.setHeaders(people[client++ % people.length]!) });
// Off the main thread autocannon leaves its histograms encoded; aggregating decodes them.
const result = (autocannon as unknown as { aggregateResult(r: unknown[], o: object): autocannon.Result }).aggregateResult([raw], options);
parentPort!.postMessage({
  latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count])),
  fiveXx: result['5xx'],
  errors: result.errors,
  timeouts: result.timeouts,
});
