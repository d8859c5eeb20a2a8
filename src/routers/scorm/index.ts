import { router } from '../../trpc/core.ts';
import { scormAsset } from './asset.ts';

/** /api/scorm/...: the files of a task definition's SCORM package. */
export const scormRouter = router({
  asset: scormAsset,
});
