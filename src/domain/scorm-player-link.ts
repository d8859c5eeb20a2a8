// The link to the SCORM player that a task definition's description carries in the API's answers
// (docs/online-tests.md, "The player"): the 8.0 web client has no player, but renders a
// description as Markdown on the task's page, so a line there is where its users find the test.
// It is added when a definition is read, never stored; a description sent back with it (the web
// client's editor returns what it was given) has it removed before it is saved.

export const PLAYER_LINK_TEXT = 'Take the online test';

/** The Markdown line: a path on the API's origin, which is the web client's in production. */
export const playerLinkLine = (taskDefinitionId: number) => `[${PLAYER_LINK_TEXT}](/api/scorm/player/${taskDefinitionId})`;

const TRAILING_LINK = /(?:\r?\n)*\[Take the online test\]\(\/api\/scorm\/player\/\d+\)\s*$/;

/** The description without a trailing player link line. */
export function withoutPlayerLink(description: string): string {
  return description.replace(TRAILING_LINK, '');
}

/** The description as answered: with the link when the definition has a test to take. */
export function withPlayerLink(description: string, taskDefinitionId: number, hasTest: boolean): string {
  const text = withoutPlayerLink(description);
  if (!hasTest) return text;
  return text === '' ? playerLinkLine(taskDefinitionId) : `${text}\n\n${playerLinkLine(taskDefinitionId)}`;
}
