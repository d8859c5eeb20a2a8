import { Readable } from 'node:stream';
import type { Task } from 'graphile-worker';
import { sql } from 'kysely';
import { z } from 'zod';
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { queuePortfolioMail } from '../../src/mail/queue.ts';
import { loadPortfolioInputs, portfolioTasks } from '../../src/pdf/portfolio-inputs.ts';
import { portfolioJobKey } from '../../src/pdf/portfolio-queue.ts';
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
    const requested = await db(em).selectFrom('projects').select('compile_portfolio').where('id', '=', projectId).executeTakeFirst();
    if (!requested?.compile_portfolio) {
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
      await finish(em, projectId, String(helpers.job.id), null);
      helpers.logger.error(`portfolio of project ${projectId} failed to compile: ${outcome.reason}`);
      return;
    }
    const pdf = outcome.pdf;
    await services.storage.put(storageKeys.portfolio(projectId), Readable.from([Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)]));
    await finish(em, projectId, String(helpers.job.id), services.clock.now());
    helpers.logger.info(`compiled the portfolio of project ${projectId} (${pdf.length} bytes)`);
  };
}

/**
 * Records the outcome: the production date when a portfolio was stored, and the request cleared,
 * unless the student asked again while this compile ran (a newer job now holds the project's
 * key); then the request stays and that job compiles again. The project row is locked first, so a
 * request committing meanwhile is either seen here or comes after.
 */
async function finish(em: Em, projectId: number, jobId: string, producedAt: Date | null): Promise<void> {
  await em.transactional(async (tx) => {
    const k = db(tx as Em);
    await sql`select id from projects where id = ${projectId} for update`.execute(k);
    const newer = await sql<{ id: string }>`
      select id from graphile_worker._private_jobs where key = ${portfolioJobKey(projectId)} and id <> ${jobId}::bigint`.execute(k);
    // The student hears of it (portfolio_ready or portfolio_failed) only if this outcome commits.
    await queuePortfolioMail(tx as Em, { projectId, ok: producedAt !== null });
    await k
      .updateTable('projects')
      .set({
        compile_portfolio: newer.rows.length > 0,
        ...(producedAt ? { portfolio_production_date: producedAt.toISOString() } : {}),
      })
      .where('id', '=', projectId)
      .execute();
  });
}
