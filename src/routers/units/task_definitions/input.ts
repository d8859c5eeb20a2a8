import { DefinitionError, parsePlagiarismChecks, parseUploadRequirements } from '../../../domain/task-definitions.ts';
import { badRequest } from '../../../trpc/errors.ts';
import type { TaskDefinitionFields } from './operations.ts';
import type { UpdateTaskDefinitionInput } from './schemas.ts';

type WireFields = UpdateTaskDefinitionInput['task_def'];

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
  };
}
