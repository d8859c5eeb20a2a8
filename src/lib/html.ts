// The small server-rendered HTML pages (invitations, LTI launch, registration and deep linking):
// one escaping rule and one page shell, so every value that reaches a page is escaped the same way.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE =
  'body{font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin-top:1rem}' +
  'input,select{width:100%;padding:.4rem}input[type=checkbox],input[type=radio]{width:auto}button{margin-top:1.2rem;padding:.5rem 1rem}.error{color:#a00}';

/** A whole document: `title` is escaped here; `body` is HTML the caller built with escapeHtml. */
export function htmlPage(product: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(product)}</title>
<style>${STYLE}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

/** A page that only says something (a refusal, a confirmation). */
export function messagePage(product: string, title: string, message: string): string {
  return htmlPage(product, title, `<p>${escapeHtml(message)}</p>`);
}
