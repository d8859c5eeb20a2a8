// Feedback templates (docs/marking/templates.md): filling in a template's placeholders and
// combining several templates into one comment. Pure: the values come from the caller.
import type { TaskStatus } from './vocabulary.ts';

/** The placeholders a template may use; anything else in braces stays as typed. */
export const PLACEHOLDERS = ['student_first_name', 'task_name', 'due_date'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

const PLACEHOLDER = /\{([a-z_]+)\}/g;
const known = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

/**
 * The template's text with its known placeholders filled in. An unknown one (`{mark}`, a typo such
 * as `{task}`) is left exactly as typed, so the tutor sees it in the comment rather than losing it.
 */
export function renderTemplate(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (known(name) ? values[name] : whole));
}

/** The placeholders in the text that are not filled in (shown to the convenor when saving). */
export function unknownPlaceholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) if (!known(match[1])) names.add(match[1]);
  return [...names];
}

/** Several rendered templates as one comment: in the order chosen, a blank line between them. */
export function joinFeedback(texts: readonly string[]): string {
  return texts
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .join('\n\n');
}

/**
 * The status the chosen templates suggest together: none, one (however many suggest it), or a
 * conflict when two suggest different statuses.
 */
export function suggestedStatus(suggestions: readonly (TaskStatus | null)[]): { ok: true; status: TaskStatus | null } | { ok: false; statuses: TaskStatus[] } {
  const statuses = [...new Set(suggestions.filter((s): s is TaskStatus => s !== null))];
  if (statuses.length > 1) return { ok: false, statuses };
  return { ok: true, status: statuses[0] ?? null };
}
