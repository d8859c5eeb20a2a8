import { router } from '../../trpc/core.ts';
import { downloadAllResources } from './all_resources/download.ts';
import { createUnitProcedure } from './create.ts';
import { getUnit } from './get.ts';
import { downloadGrades } from './grades.ts';
import { taskInbox } from './tasks/inbox.ts';
import { inboxChanges } from './tasks/live.ts';
import { awaitingFeedback } from './feedback.ts';
import { listUnitsProcedure } from './list.ts';
import { rolloverUnitProcedure } from './rollover.ts';
import { studentTargetGradeProcedure, taskCompletionStatsProcedure, taskStatusPctProcedure } from './stats.ts';
import { updateUnitProcedure } from './update.ts';
import { outcomesRouter } from './outcomes/index.ts';
import { taskDefinitionsRouter } from './task_definitions/index.ts';
import { tutorialStreamsRouter } from './tutorial_streams/index.ts';
import { tutorialEnrolmentsRouter } from './tutorials/enrolments/index.ts';
import { groupSetsRouter } from './group_sets/index.ts';
import { learningAlignmentsRouter } from './learning_alignments/index.ts';
import { feedbackTemplateGroupsRouter } from './feedback_template_groups/index.ts';
import { feedbackTemplatesRouter } from './feedback_templates/index.ts';
import { getWorkload } from './workload/get.ts';
import { moderationSamplesRouter } from './moderation_samples/index.ts';
import { moderationReportProcedure } from './moderation-report.ts';
import { engagementReport } from './engagements/report.ts';
import { engagementReportCsvProcedure } from './engagements/report-csv.ts';

/** /api/units and everything under /api/units/{id}/ (each nested resource in its own folder). */
export const unitsRouter = router({
  list: listUnitsProcedure,
  create: createUnitProcedure,
  get: getUnit,
  update: updateUnitProcedure,
  rollover: rolloverUnitProcedure,
  grades: downloadGrades,
  allResources: downloadAllResources,
  inbox: taskInbox,
  inboxChanges,
  feedback: awaitingFeedback,
  stats: router({
    taskCompletionStats: taskCompletionStatsProcedure,
    taskStatusPct: taskStatusPctProcedure,
    studentTargetGrade: studentTargetGradeProcedure,
  }),
  outcomes: outcomesRouter,
  taskDefinitions: taskDefinitionsRouter,
  tutorialStreams: tutorialStreamsRouter,
  tutorials: router({ enrolments: tutorialEnrolmentsRouter }),
  groupSets: groupSetsRouter,
  learningAlignments: learningAlignmentsRouter,
  feedbackTemplateGroups: feedbackTemplateGroupsRouter,
  feedbackTemplates: feedbackTemplatesRouter,
  workload: getWorkload,
  moderationSamples: moderationSamplesRouter,
  moderationReport: moderationReportProcedure,
  engagements: router({ report: engagementReport, reportCsv: engagementReportCsvProcedure }),
});
