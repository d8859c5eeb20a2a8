// Thread task (src/threads/pool.ts): code similarity (tokenizing and winnowing every submission of a
// definition), which takes seconds of CPU for a large class.
import { compareCode, type CodeMatch, type CodeSimilarityOptions, type CodeSubmission } from '../domain/code-similarity.ts';

export default function compareCodeThread(input: { submissions: CodeSubmission[]; options: CodeSimilarityOptions }): CodeMatch[] {
  return compareCode(input.submissions, input.options);
}
