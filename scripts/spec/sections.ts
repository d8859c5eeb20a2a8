// Which section of docs/coverage.md's table a spec operation belongs to.

export interface SpecEndpoint {
  section: string;
  method: string;
  path: string;
}

const NO_DETAIL = ' (no payload detail)';

const segments = (path: string) =>
  path
    .replace(/\{[^}]+\}/g, '{}')
    .split('/')
    .filter(Boolean);

function sharedPrefix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The spec's Units heading ends with one sentence listing operations "with no payload detail",
 * and endpoints.json files all of them under "Units (no payload detail)", user operations
 * included. Each such operation goes to the section whose operations share the longest path
 * prefix with it (`/api/users/{id}` beside `/api/users`, `/api/units/{unit_id}/task_definitions`
 * beside the task definitions); a tie stays with the heading that listed it (Units).
 */
export function sectionOf(endpoint: SpecEndpoint, spec: SpecEndpoint[]): string {
  if (!endpoint.section.endsWith(NO_DETAIL)) return endpoint.section;
  const listedUnder = endpoint.section.slice(0, -NO_DETAIL.length);
  const own = segments(endpoint.path);
  let best = { section: listedUnder, shared: -1 };
  for (const other of spec) {
    if (other.section.endsWith(NO_DETAIL)) continue;
    const shared = sharedPrefix(own, segments(other.path));
    if (shared > best.shared || (shared === best.shared && other.section === listedUnder)) best = { section: other.section, shared };
  }
  return best.section;
}
