import { Migration00001Initial } from './Migration00001Initial.ts';
import { Migration00002SignInThrottleAndSamlReplay } from './Migration00002SignInThrottleAndSamlReplay.ts';
import { Migration00003PortfolioParts } from './Migration00003PortfolioParts.ts';
import { Migration00004Invitations } from './Migration00004Invitations.ts';
import { Migration00005SignInFailures } from './Migration00005SignInFailures.ts';
import { Migration00006WorkerHeartbeats } from './Migration00006WorkerHeartbeats.ts';
import { Migration00007GradeAndQualityDefaults } from './Migration00007GradeAndQualityDefaults.ts';
import { Migration00008Lti } from './Migration00008Lti.ts';
import { Migration00009LtiContexts } from './Migration00009LtiContexts.ts';
import { Migration00010LtiLaunch } from './Migration00010LtiLaunch.ts';
import { Migration00011LtiDeepLinking } from './Migration00011LtiDeepLinking.ts';
import { Migration00013LtiScores } from './Migration00013LtiScores.ts';
import { Migration00014FeedbackTemplates } from './Migration00014FeedbackTemplates.ts';
import { Migration00015Rubrics } from './Migration00015Rubrics.ts';
import { Migration00016NotesModerationEscalation } from './Migration00016NotesModerationEscalation.ts';
import { Migration00017LiveEvents } from './Migration00017LiveEvents.ts';
import { Migration00018LiveEventsTransactions } from './Migration00018LiveEventsTransactions.ts';
import { Migration00019OnlineTests } from './Migration00019OnlineTests.ts';
import { Migration00023OverseerSteps } from './Migration00023OverseerSteps.ts';
import { Migration00024TeachingRules } from './Migration00024TeachingRules.ts';
// Applied in this order. Each migration is listed by hand so that no file discovery is needed at start.

export const migrationsList = [
  { name: 'Migration00001Initial', class: Migration00001Initial },
  { name: 'Migration00002SignInThrottleAndSamlReplay', class: Migration00002SignInThrottleAndSamlReplay },
  { name: 'Migration00003PortfolioParts', class: Migration00003PortfolioParts },
  { name: 'Migration00004Invitations', class: Migration00004Invitations },
  { name: 'Migration00005SignInFailures', class: Migration00005SignInFailures },
  { name: 'Migration00006WorkerHeartbeats', class: Migration00006WorkerHeartbeats },
  { name: 'Migration00007GradeAndQualityDefaults', class: Migration00007GradeAndQualityDefaults },
  { name: 'Migration00008Lti', class: Migration00008Lti },
  { name: 'Migration00009LtiContexts', class: Migration00009LtiContexts },
  { name: 'Migration00010LtiLaunch', class: Migration00010LtiLaunch },
  { name: 'Migration00011LtiDeepLinking', class: Migration00011LtiDeepLinking },
  { name: 'Migration00013LtiScores', class: Migration00013LtiScores },
  { name: 'Migration00014FeedbackTemplates', class: Migration00014FeedbackTemplates },
  { name: 'Migration00015Rubrics', class: Migration00015Rubrics },
  { name: 'Migration00016NotesModerationEscalation', class: Migration00016NotesModerationEscalation },
  { name: 'Migration00017LiveEvents', class: Migration00017LiveEvents },
  { name: 'Migration00018LiveEventsTransactions', class: Migration00018LiveEventsTransactions },
  { name: 'Migration00019OnlineTests', class: Migration00019OnlineTests },
  { name: 'Migration00023OverseerSteps', class: Migration00023OverseerSteps },
  { name: 'Migration00024TeachingRules', class: Migration00024TeachingRules },
];
