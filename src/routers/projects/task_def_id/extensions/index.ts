import { router } from '../../../../trpc/core.ts';
import { assessExtension } from './assess.ts';
import { requestExtension } from './request.ts';

// .../task_def_id/{td}/request_extension and .../assess_extension/{task_comment_id}.
export const extensionsRouter = router({
  request: requestExtension,
  assess: assessExtension,
});
