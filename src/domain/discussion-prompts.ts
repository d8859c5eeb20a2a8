// Discussion prompts (docs/discussion-prompts.md): the questions a tutor asks while a task is in
// discuss or demonstrate. The limits every writer checks (the API, the CSV import), and the CSV
// cell that carries a definition's prompts.
import { z } from 'zod';

/** A prompt's text, after trimming: 1..PROMPT_CONTENT_MAX characters. */
export const PROMPT_CONTENT_MAX = 2000;
/** Priorities are whole numbers in this range; lower comes first. */
export const PROMPT_PRIORITY = { min: -1_000_000, max: 1_000_000, default: 0 };
/** At most this many prompts per definition in one CSV cell. */
export const PROMPTS_PER_CELL_MAX = 100;

export interface PromptSettings {
  content: string;
  priority: number;
}

/** Why a prompt cannot be stored, or null. `content` is taken as already trimmed. */
export function promptProblem(prompt: PromptSettings): string | null {
  if (prompt.content === '') return 'Content is empty';
  if (prompt.content.length > PROMPT_CONTENT_MAX) return `Content is too long (maximum is ${PROMPT_CONTENT_MAX} characters)`;
  if (!Number.isInteger(prompt.priority) || prompt.priority < PROMPT_PRIORITY.min || prompt.priority > PROMPT_PRIORITY.max) {
    return `Priority must be a whole number from ${PROMPT_PRIORITY.min} to ${PROMPT_PRIORITY.max}`;
  }
  return null;
}

const cellPrompt = z.object({
  content: z.string().transform((s) => s.trim()),
  priority: z.number().default(PROMPT_PRIORITY.default),
});

/**
 * The CSV cell `discussion_prompts`: a JSON array of `{content, priority}` in the order the export
 * writes them (priority, then id). Throws an Error naming what is wrong.
 */
export function parsePromptsJson(text: string): PromptSettings[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('discussion_prompts is not JSON');
  }
  const parsed = z.array(cellPrompt).max(PROMPTS_PER_CELL_MAX).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`discussion_prompts ${issue.path.join('.') || '(list)'}: ${issue.message}`);
  }
  parsed.data.forEach((prompt, i) => {
    const problem = promptProblem(prompt);
    if (problem) throw new Error(`discussion_prompts ${i}: ${problem}`);
  });
  return parsed.data;
}
