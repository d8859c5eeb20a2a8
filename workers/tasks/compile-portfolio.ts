import { Readable } from 'node:stream';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { loadPortfolioInputs, portfolioTasks } from '../../src/pdf/portfolio-inputs.ts';
import { portfolioRequested, recordPortfolioCompile } from '../../src/operations/submission/project/portfolio/record-portfolio-compile.ts';
import { transferable } from '../../src/threads/moving.ts';
import { isOutOfMemory } from '../../src/threads/pool.ts';
import type { RenderPortfolioOutcome } from '../../src/threads/render-portfolio.ts';
import { renderPortfolioInThread } from '../../src/threads/tasks.ts';
import { readAll, StoredFileTooLarge, storageKeys } from '../../src/storage/index.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ projectId: z.number().int().positive() });

/**
 * Compiles a project's portfolio (behaviour.md §5.4, beyond-spec.md §8.3) while the project still
 * asks for it (`compile_portfolio`). On success the PDF is stored (atomically, replacing the last
 * one), `portfolio_production_date` is set, which locks the submitted grade, and the request is
 * cleared. A part or task PDF that cannot be read fails the compile: nothing is stored, the request
 * is cleared, and the job ends (a retry would fail the same way). Anything else (database, storage,
 * a stopped worker) throws, so graphile-worker retries the job. Running it again is harmless.
 */
export function compilePortfolio(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const { projectId } = payloadSchema.parse(rawPayload);
    const em = services.orm.em.fork();
    if (!(await portfolioRequested(em, projectId))) {
      helpers.logger.info(`project ${projectId} no longer asks for a portfolio; nothing to compile`);
      return;
    }
    const inputs = await loadPortfolioInputs(em, projectId);
    if (!inputs) return;
    const { threads, pdfMaxPagesPerFile: maxPagesPerFile, institutionName, externalName: productName } = services.config;
    // The files it embeds are read from the store (wherever this worker runs) and moved to a pool
    // thread, which renders while the event loop answers requests. pdf-lib merges a PDF from one
    // buffer, so each is read whole, but none larger than the thread's whole memory: one that big
    // could not be rendered anyway (parts came in under MAX_UPLOAD_BYTES, task PDFs from such a thread).
    const maxFileBytes = threads.memoryMb * 1024 * 1024;
    const files = new Map<string, Uint8Array>();
    let outcome: RenderPortfolioOutcome | undefined;
    try {
      for (const key of new Set([...inputs.parts.map((p) => p.key), ...portfolioTasks(inputs.definitions).map((t) => t.pdfKey as string)])) {
        const bytes = await readAll(services.storage, key, maxFileBytes);
        if (bytes) files.set(key, transferable(bytes));
      }
    } catch (error) {
      if (!(error instanceof StoredFileTooLarge)) throw error;
      outcome = { ok: false, reason: `${error.key} is larger than the ${threads.memoryMb} MB of memory the service gives one PDF` };
    }
    try {
      outcome ??= await renderPortfolioInThread(
        threads,
        { inputs, files, now: services.clock.now(), institutionName, productName, maxPagesPerFile },
        {
          signal: helpers.abortSignal,
          transfer: [...files.values()].map((b) => b.buffer as ArrayBuffer),
        },
      );
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      outcome = { ok: false, reason: `it needs more than the ${threads.memoryMb} MB of memory the service gives one PDF` };
    }
    if (!outcome.ok) {
      await recordPortfolioCompile(em, projectId, String(helpers.job.id), null);
      helpers.logger.error(`portfolio of project ${projectId} failed to compile: ${outcome.reason}`);
      return;
    }
    const pdf = outcome.pdf;
    await services.storage.put(storageKeys.portfolio(projectId), Readable.from([Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)]));
    await recordPortfolioCompile(em, projectId, String(helpers.job.id), services.clock.now());
    helpers.logger.info(`compiled the portfolio of project ${projectId} (${pdf.length} bytes)`);
  };
}
