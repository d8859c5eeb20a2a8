import { router } from '../../trpc/core.ts';
import { listSimcheckActions } from './actions_list.ts';
import { retrySimcheckAction } from './actions_retry.ts';
import { acceptSimcheckEula } from './eula_accept.ts';
import { getSimcheckEula } from './eula_get.ts';

/** /api/simcheck_eula and /api/simcheck_actions (the original's /api/tii_eula and /api/tii_actions, served too). */
export const simcheckRouter = router({
  eula: getSimcheckEula,
  acceptEula: acceptSimcheckEula,
  actions: listSimcheckActions,
  retryAction: retrySimcheckAction,
});
