// Rollover: a unit's definitions copied into the next offering, matched to its group sets and streams by name.
import type { ITaskDefinition, IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { refIdOrNull } from '../../../db/refs.ts';
import { createTaskDefinition } from './write-task-definition.ts';

/**
 * A copy of `source` in another unit (rollover), with the dates given. The group set and stream
 * are the target unit's ones of the same name and abbreviation, or none.
 */
export async function copyTaskDefinition(
  em: Em,
  source: ITaskDefinition,
  target: Pick<IUnit, 'id'>,
  dates: { startDate: string; targetDate: string; dueDate: string | null },
): Promise<ITaskDefinition> {
  const names = await db(em)
    .selectFrom('task_definitions as d')
    .leftJoin('group_sets as g', 'g.id', 'd.group_set_id')
    .leftJoin('tutorial_streams as s', 's.id', 'd.tutorial_stream_id')
    .select(['g.name as group_set', 's.abbreviation as stream'])
    .where('d.id', '=', source.id)
    .executeTakeFirstOrThrow();
  const groupSet = names.group_set
    ? await db(em).selectFrom('group_sets').select('id').where('unit_id', '=', target.id).where('name', '=', names.group_set).executeTakeFirst()
    : undefined;
  const stream = names.stream
    ? await db(em)
        .selectFrom('tutorial_streams')
        .select('abbreviation')
        .where('unit_id', '=', target.id)
        .where('abbreviation', '=', names.stream)
        .executeTakeFirst()
    : undefined;
  const copy = await createTaskDefinition(em, target, {
    name: source.name,
    abbreviation: source.abbreviation,
    description: source.description,
    weighting: source.weighting,
    targetGrade: source.targetGrade,
    startDate: dates.startDate,
    targetDate: dates.targetDate,
    dueDate: dates.dueDate,
    restrictStatusUpdates: source.restrictStatusUpdates,
    uploadRequirements: source.uploadRequirements,
    plagiarismChecks: source.plagiarismChecks,
    plagiarismWarnPct: source.plagiarismWarnPct,
    isGraded: source.isGraded,
    maxQualityPts: source.maxQualityPts,
    assessmentEnabled: source.assessmentEnabled,
    groupSetId: groupSet?.id ?? null,
    tutorialStreamAbbr: stream?.abbreviation ?? null,
    overseerImageId: refIdOrNull(source.overseerImage),
    scormEnabled: source.scormEnabled,
    scormAllowReview: source.scormAllowReview,
    scormBypassTest: source.scormBypassTest,
    scormTimeDelayEnabled: source.scormTimeDelayEnabled,
    scormAttemptLimit: source.scormAttemptLimit,
    scormTrust: source.scormTrust,
    scormPassStatus: source.scormPassStatus ?? null,
    requiresDiscussion: source.requiresDiscussion,
  });
  // What was read from the package's manifest goes with it: the caller copies the stored package
  // (copyScormPackageForRollover), which clears these again if the package is gone.
  copy.scormVersion = source.scormVersion ?? null;
  copy.scormLaunchFile = source.scormLaunchFile ?? null;
  copy.scormPackageBytes = source.scormPackageBytes ?? null;
  await em.flush();
  return copy;
}
