import type { Config } from '../../config.ts';
import { forbidden } from '../../lib/errors.ts';

export const SIMCHECK_DISABLED = 'Similarity checks are not enabled';

/** Changes need the service; while it is off they are refused (reads answer null or what is recorded). */
export function requireSimcheckEnabled(config: Pick<Config, 'simcheckEnabled'>): void {
  if (!config.simcheckEnabled) throw forbidden(SIMCHECK_DISABLED);
}
