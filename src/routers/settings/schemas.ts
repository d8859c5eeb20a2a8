import { z } from 'zod';
import type { Config } from '../../config.ts';

export const settingsOut = z.object({
  externalName: z.string(),
  overseerEnabled: z.boolean(),
  simcheckEnabled: z.boolean(),
  /** The same flag as `simcheckEnabled`, under the name the real web client reads. */
  tiiEnabled: z.boolean(),
});
export type SettingsOut = z.infer<typeof settingsOut>;

export function toSettings(config: Config): SettingsOut {
  return {
    externalName: config.externalName,
    overseerEnabled: config.overseerEnabled,
    simcheckEnabled: config.simcheckEnabled,
    tiiEnabled: config.simcheckEnabled,
  };
}

export const privacyOut = z.object({ privacy: z.string(), plagiarism: z.string() });
export type PrivacyOut = z.infer<typeof privacyOut>;

export function toPrivacy(config: Config): PrivacyOut {
  return { privacy: config.privacyStatement, plagiarism: config.plagiarismStatement };
}
