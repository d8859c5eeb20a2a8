// Thread task (src/threads/pool.ts): a portfolio PDF from its inputs and the stored files it
// embeds, read beforehand by the job and moved here. A part that cannot be read is an outcome
// (an error's class does not survive the way back); the PDF's bytes are moved back.
import type { PortfolioInputs } from '../pdf/portfolio-inputs.ts';
import { PortfolioPartError, renderPortfolio } from '../pdf/portfolio-render.ts';
import { moveBack, transferable } from './moving.ts';

export interface RenderPortfolioInput {
  inputs: PortfolioInputs;
  /** The stored files the portfolio embeds, by storage key; a missing one is absent. */
  files: Map<string, Uint8Array>;
  now: Date;
  institutionName: string;
  productName: string;
  maxPagesPerFile: number;
}

export type RenderPortfolioOutcome = { ok: true; pdf: Uint8Array } | { ok: false; reason: string };

export default async function renderPortfolioThread(input: RenderPortfolioInput): Promise<RenderPortfolioOutcome> {
  const read = async (key: string) => {
    const bytes = input.files.get(key);
    return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  };
  try {
    const pdf = transferable(await renderPortfolio(input.inputs, { ...input, read }));
    return moveBack<RenderPortfolioOutcome>({ ok: true, pdf }, [pdf.buffer]);
  } catch (error) {
    if (error instanceof PortfolioPartError) return { ok: false, reason: error.message };
    throw error;
  }
}
