// The only description of the tables. Entities are grouped by area; migrations live beside them.
export * from './enums.ts';
export * from './users.ts';
export * from './institution.ts';
export * from './units.ts';
export * from './projects.ts';
export * from './tasks.ts';
export * from './similarity.ts';
export * from './sign-in.ts';
export * from './workers.ts';
export * from './lti.ts';
export * from './marking-templates.ts';
export * from './live.ts';
export * from './marking-oversight.ts';
export * from './marking-rubrics.ts';
export * from './overseer-steps.ts';
export * from './teaching-rules.ts';

import { AuthToken, Invitation, ScormToken, User, Webcal, WebcalUnitExclusion } from './users.ts';
import { ActivityType, Break, Campus, OverseerImage, TeachingPeriod } from './institution.ts';
import { GroupSet, Group, LearningAlignment, LearningOutcome, TaskDefinition, Tutorial, TutorialStream, Unit, UnitRole } from './units.ts';
import { GroupMembership, GroupSubmission, PortfolioPart, Project, TutorialEnrolment } from './projects.ts';
import { CommentReadReceipt, OverseerAssessment, SubmissionFile, Task, TaskComment, TaskPin, TaskSubmission, TestAttempt } from './tasks.ts';
import { SimcheckAction, SimcheckGroupAttachment, SimcheckSubmission, TaskSimilarity } from './similarity.ts';
import { SignInFailure, UsedSamlAssertion } from './sign-in.ts';
import { WorkerHeartbeat } from './workers.ts';
import { FeedbackTemplate, FeedbackTemplateGroup, FeedbackTemplateUse } from './marking-templates.ts';
import { LiveEvent } from './live.ts';
import {
  LtiContext,
  LtiDeepLinkingTicket,
  LtiIdentity,
  LtiKey,
  LtiLaunchTicket,
  LtiLineItem,
  LtiLoginState,
  LtiPlatform,
  LtiResourceLink,
  LtiScorePassback,
  LtiSignInToken,
} from './lti.ts';
import { ModerationItem, ModerationSample, StaffNote, StaffNoteMention, TaskEscalation } from './marking-oversight.ts';
import { OverseerStep, OverseerStepResult } from './overseer-steps.ts';
import { DiscussionPrompt, Engagement, EngagementComment, TaskPrerequisite } from './teaching-rules.ts';
import { Rubric, RubricCriterion, RubricLevel, RubricMark, RubricMarkChoice } from './marking-rubrics.ts';

export const entities = [
  User,
  AuthToken,
  Webcal,
  WebcalUnitExclusion,
  Invitation,
  TeachingPeriod,
  Break,
  Campus,
  ActivityType,
  OverseerImage,
  Unit,
  UnitRole,
  LearningOutcome,
  TutorialStream,
  Tutorial,
  GroupSet,
  Group,
  TaskDefinition,
  LearningAlignment,
  Project,
  TutorialEnrolment,
  GroupMembership,
  GroupSubmission,
  PortfolioPart,
  Task,
  TaskComment,
  CommentReadReceipt,
  TaskPin,
  TaskSubmission,
  SubmissionFile,
  OverseerAssessment,
  TaskSimilarity,
  SimcheckSubmission,
  SimcheckGroupAttachment,
  SimcheckAction,
  SignInFailure,
  UsedSamlAssertion,
  WorkerHeartbeat,
  LtiPlatform,
  LtiKey,
  LtiIdentity,
  LtiLoginState,
  LtiContext,
  LtiResourceLink,
  LtiSignInToken,
  LtiLaunchTicket,
  LtiLineItem,
  LtiScorePassback,
  LtiDeepLinkingTicket,
  FeedbackTemplateGroup,
  FeedbackTemplate,
  FeedbackTemplateUse,
  LiveEvent,
  StaffNote,
  StaffNoteMention,
  ModerationSample,
  ModerationItem,
  TaskEscalation,
  Rubric,
  RubricCriterion,
  RubricLevel,
  RubricMark,
  RubricMarkChoice,
  ScormToken,
  TestAttempt,
  OverseerStep,
  OverseerStepResult,
  TaskPrerequisite,
  DiscussionPrompt,
  Engagement,
  EngagementComment,
];
