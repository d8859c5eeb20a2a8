import { z } from 'zod';
import { WEBCAL_REMINDER_UNITS } from '../../../schema/index.ts';
import { REMINDER_UNITS_OUT } from '../../operations/webcal/find-webcal.ts';
import { formBool, formInt, formIntList } from '../../trpc/fields.ts';

const INT32_MAX = 2_147_483_647;

// Sent in upper case (see REMINDER_UNITS_OUT); either case is accepted on the way in.
export const reminderOut = z.object({ time: z.number().int(), unit: z.enum(REMINDER_UNITS_OUT) });

/** The caller's calendar settings, or just `{enabled: false}` when they have no calendar. */
export const webcalOut = z.union([
  z.object({ enabled: z.literal(false) }),
  z.object({
    id: z.number().int(),
    guid: z.string(),
    user_id: z.number().int(),
    include_start_dates: z.boolean(),
    enabled: z.literal(true),
    reminder: reminderOut.optional(),
    unit_exclusions: z.array(z.number().int()),
  }),
]);
export type WebcalOut = z.infer<typeof webcalOut>;

/** w(eeks), d(ays), h(ours), m(inutes); the original's upper-case letters are accepted too. */
const reminderUnit = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(WEBCAL_REMINDER_UNITS));

/** `null` (or an empty form value) clears the reminder; otherwise both parts are required. */
const reminderInput = z.preprocess(
  (v) => (v === '' || v === 'null' ? null : v),
  z
    .object({
      time: formInt().pipe(z.number().int().min(1).max(INT32_MAX)),
      unit: reminderUnit,
    })
    .nullable(),
);

// Every key is optional: the web client sends only what changed.
export const updateWebcalInput = z.object({
  webcal: z
    .object({
      enabled: formBool().optional(),
      should_change_guid: formBool().optional(),
      include_start_dates: formBool().optional(),
      unit_exclusions: formIntList().optional(),
      reminder: reminderInput.optional(),
    })
    .default({}),
});
export type UpdateWebcalInput = z.infer<typeof updateWebcalInput>;
