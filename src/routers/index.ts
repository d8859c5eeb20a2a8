import { router } from '../trpc/core.ts';
import { jobsRouter } from './admin/jobs/index.ts';
import { overseerImagesRouter } from './admin/overseer_images/index.ts';
import { activityTypesRouter } from './activity_types/index.ts';
import { authRouter } from './auth/index.ts';
import { campusesRouter } from './campuses/index.ts';
import { csvRouter } from './csv/index.ts';
import { ltiRouter } from './lti/index.ts';
import { projectsRouter } from './projects/index.ts';
import { scormRouter } from './scorm/index.ts';
import { settingsRouter } from './settings/index.ts';
import { simcheckRouter } from './simcheck/index.ts';
import { studentsRouter } from './students/index.ts';
import { submissionRouter } from './submission/index.ts';
import { teachingPeriodsRouter } from './teaching_periods/index.ts';
import { unitRolesRouter } from './unit_roles/index.ts';
import { usersRouter } from './users/index.ts';
import { unitsRouter } from './units/index.ts';
import { tutorialsRouter } from './tutorials/index.ts';
import { tasksRouter } from './tasks/index.ts';
import { testAttemptsRouter } from './test_attempts/index.ts';
import { webcalRouter } from './webcal/index.ts';
import { overseerStepRouter } from './overseer_steps/index.ts';
import { topTaskDefinitionsRouter } from './task_definitions/index.ts';

// The whole API. Each key mirrors the spec path it serves (/api/teaching_periods -> teachingPeriods),
// and each folder under src/routers is named after that path segment.
export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  settings: settingsRouter,
  teachingPeriods: teachingPeriodsRouter,
  campuses: campusesRouter,
  activityTypes: activityTypesRouter,
  admin: router({ overseerImages: overseerImagesRouter, jobs: jobsRouter }),
  webcal: webcalRouter,
  units: unitsRouter,
  unitRoles: unitRolesRouter,
  projects: projectsRouter,
  students: studentsRouter,
  csv: csvRouter,
  tutorials: tutorialsRouter,
  submission: submissionRouter,
  tasks: tasksRouter,
  testAttempts: testAttemptsRouter,
  simcheck: simcheckRouter,
  lti: ltiRouter,
  overseerSteps: overseerStepRouter,
  scorm: scormRouter,
  taskDefinitions: topTaskDefinitionsRouter,
});

export type AppRouter = typeof appRouter;
