// The small HTML pages of an invitation; every value is escaped.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE =
  'body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin-top:1rem}' +
  'input{width:100%;padding:.4rem}button{margin-top:1.2rem;padding:.5rem 1rem}.error{color:#a00}';

function page(product: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(product)}</title>
<style>${STYLE}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

export function formPage(d: { product: string; username: string; firstName: string; action: string; error?: string; minLength: number }): string {
  return page(
    d.product,
    'Set your password',
    `<p>Hi ${escapeHtml(d.firstName)}, choose a password for the username <strong>${escapeHtml(d.username)}</strong>.</p>
${d.error ? `<p class="error" role="alert">${escapeHtml(d.error)}</p>` : ''}
<form method="post" action="${escapeHtml(d.action)}">
<label for="password">Password (at least ${d.minLength} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${d.minLength}" required>
<label for="password_confirmation">Password again</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" minlength="${d.minLength}" required>
<button type="submit">Set password</button>
</form>`,
  );
}

export function messagePage(product: string, title: string, message: string): string {
  return page(product, title, `<p>${escapeHtml(message)}</p>`);
}
