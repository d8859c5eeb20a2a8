import { router } from '../../trpc/core.ts';
import { listSimcheckActions } from '../simcheck_actions/list.ts';
import { retrySimcheckAction } from '../simcheck_actions/retry.ts';
import { getSimcheckEula } from '../simcheck_eula/get.ts';
import { acceptSimcheckEula } from '../simcheck_eula/users/accept.ts';

/**
 * /api/simcheck_eula and /api/simcheck_actions (the original's /api/tii_eula and /api/tii_actions,
 * served too), from their path folders; assembled here under the /trpc keys they always had.
 */
export const simcheckRouter = router({
  eula: getSimcheckEula,
  acceptEula: acceptSimcheckEula,
  actions: listSimcheckActions,
  retryAction: retrySimcheckAction,
});
