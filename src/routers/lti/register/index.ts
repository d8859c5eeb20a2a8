import { router } from '../../../trpc/core.ts';
import { ltiRegister } from './confirm.ts';
import { ltiRegistrationPage } from './page.ts';

export const ltiRegisterRouter = router({ page: ltiRegistrationPage, confirm: ltiRegister });
