// Code similarity as MOSS computes it: each submission's code becomes one token stream
// (src/domain/code-tokens.ts), dolos-core's FingerprintIndex winnows k-grams of tokens into
// fingerprints, and two submissions are similar by the share of each one's fingerprints that the
// other shares. Pure and in memory; the worker (workers/tasks/code-similarity.ts) feeds it.
import { File, FingerprintIndex, Region, TokenizedFile } from '@dodona/dolos-core';
import { codeFamily, codeText, codeTokens } from '../domain/code-tokens.ts';

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

/** Every pair of submissions that shares at least one fingerprint, with each side's share. */
export function compareCode(submissions: CodeSubmission[], options: CodeSimilarityOptions): CodeMatch[] {
  const files = submissions.map(tokenized).filter((f) => f.tokens.length >= options.kgramLength);
  if (files.length < 2) return [];
  const common = files.length >= COMMON_FROM_SUBMISSIONS ? Math.ceil(files.length * COMMON_SHARE) : undefined;
  const index = new FingerprintIndex(options.kgramLength, options.window, false, common);
  index.addFiles(files);
  const matches: CodeMatch[] = [];
  for (const pair of index.allPairs()) {
    if (pair.leftCovered === 0 && pair.rightCovered === 0) continue;
    const share = (covered: number, total: number, ignored: number) => (total - ignored > 0 ? Math.round((100 * covered) / (total - ignored)) : 0);
    matches.push({
      left: pair.leftFile.path,
      right: pair.rightFile.path,
      leftPct: Math.min(100, share(pair.leftCovered, pair.leftTotal, pair.leftIgnored)),
      rightPct: Math.min(100, share(pair.rightCovered, pair.rightTotal, pair.rightEntry.ignored.size)),
    });
  }
  return matches;
}
