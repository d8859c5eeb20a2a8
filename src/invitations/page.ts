// The small HTML pages of an invitation; every value is escaped.
import { escapeHtml, htmlPage as page } from '../lib/html.ts';

export { messagePage } from '../lib/html.ts';

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
