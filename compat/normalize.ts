/**
 * The real web client sends `/api//units/5/tasks/inbox`, `/api/campuses/` and
 * `.../task_pdf.json`. All of these name the same route as the plain path (except under
 * /api/scorm/, where a path names a file of a package).
 */
export function normalizeUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  path = path.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  // A SCORM package's own files keep their names: its data.json is not its data.
  if (path.startsWith('/api/') && !path.startsWith('/api/scorm/') && path.endsWith('.json')) path = path.slice(0, -'.json'.length);
  return path + query;
}
