import { router } from '../../../trpc/core.ts';
import { similarityContents } from './contents.ts';
import { legacyGetSimilarity } from '../similarity/get.ts';
import { legacyUpdateSimilarity } from '../similarity/update.ts';
import { listSimilarities } from './list.ts';
import { updateSimilarity } from './update.ts';
import { similarityViewerUrl } from './viewer-url.ts';

// /api/tasks/{task_id}/similarities: code and document similarities of a task, for its unit's staff;
// and the web client's older /api/tasks/{id}/similarity/{match} (served from ../similarity/).
export const similaritiesRouter = router({
  list: listSimilarities,
  update: updateSimilarity,
  viewerUrl: similarityViewerUrl,
  contents: similarityContents,
  legacyGet: legacyGetSimilarity,
  legacyUpdate: legacyUpdateSimilarity,
});
