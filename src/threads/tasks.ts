// Every task the pool's threads run, one file each beside this one. Only their types are imported
// here, so their code (pdf-lib, highlight.js, dolos) loads in the threads and never on the event loop.
import { threadTask } from './pool.ts';

export const renderSubmissionInThread = threadTask<typeof import('./render-submission.ts').default>(new URL('./render-submission.ts', import.meta.url));
export const renderPortfolioInThread = threadTask<typeof import('./render-portfolio.ts').default>(new URL('./render-portfolio.ts', import.meta.url));
export const compareCodeInThread = threadTask<typeof import('./compare-code.ts').default>(new URL('./compare-code.ts', import.meta.url));
