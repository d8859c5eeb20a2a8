// A user as the API shows them (`userOut` of src/routers/users/schemas.ts, keys in its order).
import type { SystemRole } from '../../../schema/enums.ts';
import type { IUser } from '../../../schema/index.ts';

export interface UserOut {
  id: number;
  student_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  nickname: string | null;
  pronouns: string | null;
  receive_task_notifications: boolean;
  receive_portfolio_notifications: boolean;
  receive_feedback_notifications: boolean;
  opt_in_to_research: boolean | null;
  has_run_first_time_setup: boolean;
  accepted_tii_eula: boolean;
  system_role: SystemRole;
}

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
