import { router } from '../../../trpc/core.ts';
import { uploadEnrolments } from './enrol.ts';
import { downloadStudents } from './export.ts';
import { downloadTaskCompletion } from './task-completion.ts';
import { downloadTutorAssessments } from './tutor-assessments.ts';
import { uploadWithdrawals } from './withdraw.ts';

export const unitCsvRouter = router({
  students: downloadStudents,
  enrol: uploadEnrolments,
  withdraw: uploadWithdrawals,
  tutorAssessments: downloadTutorAssessments,
  taskCompletion: downloadTaskCompletion,
});
