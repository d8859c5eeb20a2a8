// Every task the pool's threads run, one file each beside this one. Only their types are imported
// here, so their code (pdf-lib, highlight.js, dolos) loads in the threads and never on the event loop.
import { threadTask } from './pool.ts';

// The thread files are named by URL, which the build does not rewrite: beside this module they end
// in `.ts` under tsx (development, tests) and in `.js` in the build (`dist/`, production).
const sibling = (name: string) => new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export const renderSubmissionInThread = threadTask<typeof import('./render-submission.ts').default>(sibling('render-submission'));
export const renderPortfolioInThread = threadTask<typeof import('./render-portfolio.ts').default>(sibling('render-portfolio'));
export const compareCodeInThread = threadTask<typeof import('./compare-code.ts').default>(sibling('compare-code'));
