import { DefinitionError, parsePlagiarismChecks, parseUploadRequirements } from '../../../domain/task-definitions.ts';
import { badRequest } from '../../../lib/errors.ts';
import type { ScormTrust, TaskStatus } from '../../../domain/vocabulary.ts';
import type { TaskDefinitionFields } from './write-task-definition.ts';

/** The `task_def[...]` fields as the API's input schema gives them (snake_case; absent: unchanged). */
export interface WireFields {
  name?: string;
  abbreviation?: string;
  description?: string;
  weighting?: number;
  target_grade?: number;
  start_date?: string;
  target_date?: string;
  due_date?: string | null;
  restrict_status_updates?: boolean;
  upload_requirements?: unknown;
  plagiarism_checks?: unknown;
  plagiarism_warn_pct?: number;
  is_graded?: boolean;
  max_quality_pts?: number;
  group_set_id?: number | null;
  tutorial_stream_abbr?: string | null;
  assessment_enabled?: boolean;
  overseer_image_id?: number | null;
  scorm_enabled?: boolean;
  scorm_allow_review?: boolean;
  scorm_bypass_test?: boolean;
  scorm_time_delay_enabled?: boolean;
  scorm_attempt_limit?: number;
  scorm_trust?: ScormTrust;
  scorm_pass_status?: TaskStatus | null;
  requires_discussion?: boolean;
}

function parsed<T>(parse: (v: unknown) => T, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof DefinitionError) throw badRequest(`Validation failed: ${error.message}`);
    throw error;
  }
}

/** The wire's `task_def[...]` fields as the operations take them; absent stays absent. */
export function definitionFields(wire: WireFields): Partial<TaskDefinitionFields> {
  return {
    name: wire.name,
    abbreviation: wire.abbreviation,
    description: wire.description,
    weighting: wire.weighting,
    targetGrade: wire.target_grade,
    startDate: wire.start_date,
    targetDate: wire.target_date,
    dueDate: wire.due_date,
    restrictStatusUpdates: wire.restrict_status_updates,
    uploadRequirements: parsed(parseUploadRequirements, wire.upload_requirements),
    plagiarismChecks: parsed(parsePlagiarismChecks, wire.plagiarism_checks),
    plagiarismWarnPct: wire.plagiarism_warn_pct,
    isGraded: wire.is_graded,
    maxQualityPts: wire.max_quality_pts,
    groupSetId: wire.group_set_id,
    tutorialStreamAbbr: wire.tutorial_stream_abbr,
    assessmentEnabled: wire.assessment_enabled,
    overseerImageId: wire.overseer_image_id,
    scormEnabled: wire.scorm_enabled,
    scormAllowReview: wire.scorm_allow_review,
    scormBypassTest: wire.scorm_bypass_test,
    scormTimeDelayEnabled: wire.scorm_time_delay_enabled,
    scormAttemptLimit: wire.scorm_attempt_limit,
    scormTrust: wire.scorm_trust,
    scormPassStatus: wire.scorm_pass_status,
    requiresDiscussion: wire.requires_discussion,
  };
}
