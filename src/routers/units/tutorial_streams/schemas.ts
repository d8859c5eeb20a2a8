import { z } from 'zod';
import { idField, requiredString } from '../../../trpc/fields.ts';

/** A stream as the unit shows it: `activity_type` is the activity type's abbreviation. */
export const tutorialStreamOut = z.object({
  id: z.number().int(),
  name: z.string(),
  abbreviation: z.string(),
  activity_type: z.string(),
});
export type TutorialStreamOut = z.infer<typeof tutorialStreamOut>;

/** The spec's answer to a create or update: the stream wrapped under `tutorial_stream`. */
export const wrappedTutorialStreamOut = z.object({ tutorial_stream: tutorialStreamOut });

// The web client posts a flat `{unit_id, activity_type_abbr}`; unit_id is the path's.
export const createTutorialStreamInput = z.object({
  unit_id: idField(),
  activity_type_abbr: requiredString(),
});

const streamPath = {
  unit_id: idField(),
  tutorial_stream_abbr: requiredString(),
};

// The spec names the type `activity_type_abbr`, the original `activity_type`: both are taken.
export const updateTutorialStreamInput = z.object({
  ...streamPath,
  name: requiredString().optional(),
  abbreviation: requiredString().optional(),
  activity_type_abbr: requiredString().optional(),
  activity_type: requiredString().optional(),
});

export const tutorialStreamPathInput = z.object(streamPath);
