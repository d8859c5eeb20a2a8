import { z } from 'zod';
import { SYSTEM_ROLES } from '../../../schema/enums.ts';
import type { IUser } from '../../../schema/index.ts';

export const userOut = z.object({
  id: z.number().int(),
  student_id: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
  pronouns: z.string().nullable(),
  receive_task_notifications: z.boolean(),
  receive_portfolio_notifications: z.boolean(),
  receive_feedback_notifications: z.boolean(),
  opt_in_to_research: z.boolean().nullable(),
  has_run_first_time_setup: z.boolean(),
  accepted_tii_eula: z.boolean(),
  system_role: z.enum(SYSTEM_ROLES),
});
export type UserOut = z.infer<typeof userOut>;

export function toUser(u: IUser): UserOut {
  return {
    id: u.id,
    student_id: u.studentId ?? null,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    username: u.username,
    nickname: u.nickname ?? null,
    pronouns: u.pronouns ?? null,
    receive_task_notifications: u.receiveTaskNotifications,
    receive_portfolio_notifications: u.receivePortfolioNotifications,
    receive_feedback_notifications: u.receiveFeedbackNotifications,
    opt_in_to_research: u.optInToResearch ?? null,
    has_run_first_time_setup: u.hasRunFirstTimeSetup,
    accepted_tii_eula: u.simcheckEulaAcceptedAt != null,
    system_role: u.systemRole,
  };
}
