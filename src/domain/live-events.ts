// The vocabulary of live updates (docs/marking/live-updates.md), shared by the writing side
// (src/operations/live/publish-task-event.ts, inside the changing transaction) and the receiving
// side (src/live/hub.ts, each process's one LISTEN connection), neither of which imports the other.

/** The PostgreSQL channel live events are announced on. */
export const LIVE_CHANNEL = 'live_events';

/**
 * What happened to a task: its status, grade or extension changed (`status`); a comment was added
 * (`comment`); its submission's PDF is ready (`pdf`); an automated assessment finished (`assessment`).
 */
export const LIVE_EVENT_KINDS = ['status', 'comment', 'pdf', 'assessment'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];
