import { router } from '../../trpc/core.ts';
import { samlSignIn } from './jwt.ts';
import { authMethod, signoutUrl } from './method.ts';
import { renewSession } from './renew.ts';
import { scormToken } from './scorm.ts';
import { signIn } from './sign-in.ts';
import { signOut } from './sign-out.ts';

export const authRouter = router({
  signIn,
  renew: renewSession,
  signOut,
  method: authMethod,
  signoutUrl,
  jwt: samlSignIn,
  scormToken,
});
