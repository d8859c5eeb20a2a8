import { router } from '../../trpc/core.ts';
import { scormAsset } from './asset.ts';
import { scormPlayerRouter } from './player/index.ts';
import { scormRuntimeRouter } from './runtime/index.ts';

/**
 * /api/scorm/...: the files of a task definition's SCORM package (`asset`), the player page and its
 * context (`player`), and the player's scripts (`runtime`).
 */
export const scormRouter = router({
  asset: scormAsset,
  player: scormPlayerRouter,
  runtime: scormRuntimeRouter,
});
