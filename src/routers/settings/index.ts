import { router } from '../../trpc/core.ts';
import { getSettings } from './get.ts';
import { getPrivacy } from './privacy.ts';

export const settingsRouter = router({
  get: getSettings,
  privacy: getPrivacy,
});
