// The sentences an extension request is answered with (beyond-spec.md §4.4–4.5). Pure.

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day ('YYYY-MM-DD') as the original wrote it (strftime '%a %b %e'): "Tue Apr  2", "Mon Mar 23". */
export function shortDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')}`;
}

export type ExtensionDecision = 'granted' | 'deadline_reached' | 'rejected';

/**
 * What the assessor's answer comes to: granted only while the task can still be extended; a grant
 * asked for once the deadline is reached is not one.
 */
export function extensionDecision(granted: boolean, extendable: boolean): ExtensionDecision {
  if (!granted) return 'rejected';
  return extendable ? 'granted' : 'deadline_reached';
}

/** The response recorded on the request; `dueDay` is the task's due day after the grant. */
export function extensionResponse(decision: ExtensionDecision, dueDay: string, automatic: boolean): string {
  switch (decision) {
    case 'granted':
      return `${automatic ? 'Time extended' : 'Extension granted'} to ${shortDay(dueDay)}`;
    case 'deadline_reached':
      return 'Extension cannot be granted as deadline has been reached';
    case 'rejected':
      return 'Extension rejected';
  }
}
