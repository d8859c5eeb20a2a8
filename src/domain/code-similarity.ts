// Code similarity as MOSS computes it: each submission's code becomes one token stream
// (src/domain/code-tokens.ts), dolos-core's FingerprintIndex winnows k-grams of tokens into
// fingerprints, and two submissions are similar by the share of each one's fingerprints that the
// other shares. Pure and in memory; the worker (workers/tasks/code-similarity.ts) feeds it.
import { File, FingerprintIndex, Region, TokenizedFile } from '@dodona/dolos-core';
import { codeFamily, codeText, codeTokens } from './code-tokens.ts';

export interface CodeSubmission {
  /** Names the submission in the result. */
  key: string;
  /** Its code files, in upload-requirement order. */
  files: { filename: string; content: string }[];
}

export interface CodeMatch {
  left: string;
  right: string;
  /** Percent (0-100, rounded) of the left submission's fingerprints the right one shares, and the other way. */
  leftPct: number;
  rightPct: number;
}

export interface CodeSimilarityOptions {
  /** Tokens per k-gram: shorter finds smaller shared pieces, and more chance ones. */
  kgramLength: number;
  /** K-grams per winnowing window: one fingerprint is kept at least every this many. */
  window: number;
}

/**
 * In a large class, a fingerprint most submissions share comes from the task's starter code or
 * the language's idiom, not from copying; ignored from this many submissions on.
 */
const COMMON_FROM_SUBMISSIONS = 10;
const COMMON_SHARE = 0.5;

function tokenized(submission: CodeSubmission): TokenizedFile {
  const tokens: string[] = [];
  const mapping: Region[] = [];
  const texts: string[] = [];
  // Rows run on across the files, so every token's position is after the one before it.
  let rowOffset = 0;
  for (const file of submission.files) {
    const text = codeText(file.filename, file.content);
    for (const t of codeTokens(text, codeFamily(file.filename))) {
      tokens.push(t.text);
      mapping.push(new Region(t.row + rowOffset, t.col, t.endRow + rowOffset, t.endCol));
    }
    texts.push(text);
    rowOffset += text.split('\n').length;
  }
  return new TokenizedFile(new File(submission.key, texts.join('\n')), tokens, mapping);
}

/**
 * Every pair of submissions that shares at least one fingerprint, with each side's share: the
 * k-grams of that side whose fingerprint the other has too, of all its k-grams not ignored.
 * Counted per shared fingerprint rather than through dolos's Pair, which also finds each pair's
 * longest common run (quadratic in the file's length) and made 500 submissions take 12 s.
 */
export function compareCode(submissions: CodeSubmission[], options: CodeSimilarityOptions): CodeMatch[] {
  const files = submissions.map(tokenized).filter((f) => f.tokens.length >= options.kgramLength);
  if (files.length < 2) return [];
  const common = files.length >= COMMON_FROM_SUBMISSIONS ? Math.ceil(files.length * COMMON_SHARE) : undefined;
  const index = new FingerprintIndex(options.kgramLength, options.window, false, common);
  index.addFiles(files);
  const position = new Map(files.map((f, i) => [f.id, i]));
  // covered[i * n + j]: k-grams of file i whose fingerprint file j shares.
  const n = files.length;
  const covered = new Uint32Array(n * n);
  for (const fingerprint of index.sharedFingerprints()) {
    if (fingerprint.ignored || fingerprint.fileCount() < 2) continue;
    const holders = fingerprint.files().map((f) => [position.get(f.id)!, fingerprint.occurrencesOf(f).length] as const);
    for (const [i, occurrences] of holders) for (const [j] of holders) if (i !== j) covered[i * n + j] += occurrences;
  }
  const counted = index.entries().map((e) => e.kgrams.length - [...e.ignored].reduce((sum, f) => sum + f.occurrencesOf(e.file).length, 0));
  const byFile = new Map(index.entries().map((e, k) => [e.file.id, counted[k]]));
  const totals = files.map((f) => byFile.get(f.id) ?? 0);
  const share = (i: number, j: number) => (totals[i] > 0 ? Math.min(100, Math.round((100 * covered[i * n + j]) / totals[i])) : 0);
  const matches: CodeMatch[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (covered[i * n + j] === 0 && covered[j * n + i] === 0) continue;
      matches.push({ left: files[i].path, right: files[j].path, leftPct: share(i, j), rightPct: share(j, i) });
    }
  }
  return matches;
}
