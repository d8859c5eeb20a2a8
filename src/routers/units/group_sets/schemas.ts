import { z } from 'zod';
import { formBool, formInt, formString, idField, preprocess, requiredString } from '../../../trpc/fields.ts';

const id = z.number().int();

/** The spec's Group set (also each item of a unit's `group_sets`). */
export const groupSetOut = z.object({
  id,
  name: z.string(),
  allow_students_to_create_groups: z.boolean(),
  allow_students_to_manage_groups: z.boolean(),
  keep_groups_in_same_class: z.boolean(),
  capacity: z.number().int().nullable(),
  locked: z.boolean(),
});

/** A group as the group list and the unit show it: `student_count` counts its active members. */
export const groupOut = z.object({
  id,
  name: z.string(),
  tutorial_id: id,
  group_set_id: id,
  student_count: z.number().int(),
  capacity_adjustment: z.number().int(),
  locked: z.boolean(),
});

/**
 * The answer to creating a group: the spec names a `group` object, the web client reads the
 * group's fields at the top level (as the original sends them), so both are there.
 */
export const createdGroupOut = groupOut.extend({ group: groupOut });

// ---- Inputs -----------------------------------------------------------------------------------

/** A set's capacity: an integer, or null / blank for no limit. */
const capacity = () => preprocess((v) => (v === '' ? null : v), formInt().nullable());
const name255 = () => requiredString().pipe(z.string().max(255));

const setFlags = {
  allow_students_to_create_groups: formBool().optional(),
  allow_students_to_manage_groups: formBool().optional(),
  keep_groups_in_same_class: formBool().optional(),
  capacity: capacity().optional(),
  locked: formBool().optional(),
};

export const createGroupSetInput = z.object({
  unit_id: idField(),
  group_set: z.object({ name: name255(), ...setFlags }),
});

// The spec marks the name required on PUT too; the web client sends only the fields that changed.
export const updateGroupSetInput = z.object({
  unit_id: idField(),
  id: idField(),
  group_set: z.object({ name: name255().optional(), ...setFlags }).default({}),
});

export const groupSetPathInput = z.object({ unit_id: idField(), id: idField() });

const groupFields = {
  name: formString().pipe(z.string().max(255)).optional(),
  tutorial_id: idField().optional(),
  capacity_adjustment: formInt().optional(),
};

// The spec lists the fields flat; the web client wraps them in `group`. Both are taken (the
// wrapped value wins).
export const createGroupInput = z.object({
  unit_id: idField(),
  group_set_id: idField(),
  ...groupFields,
  group: z.object(groupFields).optional(),
});

// A group keeps a name: on update a blank one is refused rather than generated.
const changedFields = { ...groupFields, name: name255().optional(), locked: formBool().optional() };

export const updateGroupInput = z.object({
  unit_id: idField(),
  group_set_id: idField(),
  group_id: idField(),
  ...changedFields,
  group: z.object(changedFields).optional(),
});

export const groupsOfSetInput = z.object({ unit_id: idField(), id: idField() });

export const groupPathInput = z.object({ unit_id: idField(), group_set_id: idField(), group_id: idField() });
