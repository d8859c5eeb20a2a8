import { z } from 'zod';
import { formInt, formString, idField, preprocess, requiredString } from '../../trpc/fields.ts';

/** A tutorial as the unit shows it; `tutor_id` is the tutor's user id. Absent values are left out. */
export const tutorialOut = z.object({
  id: z.number().int(),
  meeting_day: z.string(),
  meeting_time: z.string(),
  meeting_location: z.string(),
  abbreviation: z.string(),
  campus_id: z.number().int().optional(),
  capacity: z.number().int(),
  tutorial_stream_abbr: z.string().optional(),
  num_students: z.number().int(),
  tutor_id: z.number().int().optional(),
});
export type TutorialOut = z.infer<typeof tutorialOut>;

/** An id of a record to look up: blank counts as no such record (404), as the original answers. */
const lookupId = () => preprocess((v) => (v === '' ? 0 : v), formInt());

/** A campus: -1, null or blank mean none (the web client sends -1). */
const campusId = () => preprocess((v) => (v === '' || v === -1 || v === '-1' ? null : v), formInt().nullable());

/** A stream abbreviation: null or blank mean none (the web client sends null). */
const streamAbbr = () => preprocess((v) => (v === '' ? null : v), formString().nullable());

export const createTutorialInput = z.object({
  tutorial: z.object({
    unit_id: lookupId(),
    tutor_id: lookupId(),
    campus_id: campusId().optional(),
    capacity: formInt(),
    abbreviation: requiredString(),
    meeting_location: requiredString(),
    meeting_day: requiredString(),
    meeting_time: requiredString(),
    tutorial_stream_abbr: streamAbbr().optional(),
  }),
});

// The web client sends only the changed fields.
export const updateTutorialInput = z.object({
  id: idField(),
  tutorial: z
    .object({
      unit_id: lookupId().optional(),
      tutor_id: lookupId().optional(),
      campus_id: campusId().optional(),
      capacity: formInt().optional(),
      abbreviation: requiredString().optional(),
      meeting_location: requiredString().optional(),
      meeting_day: requiredString().optional(),
      meeting_time: requiredString().optional(),
      tutorial_stream_abbr: streamAbbr().optional(),
    })
    .default({}),
});

export const tutorialIdInput = z.object({ id: idField() });
