import { router } from '../../trpc/core.ts';
import { listTasks } from './list.ts';
import { pinTask, unpinTask } from './pin.ts';
import { similaritiesRouter } from './similarities/index.ts';

// /api/tasks: started tasks of a unit, and the staff's inbox pins.
export const tasksRouter = router({
  list: listTasks,
  pin: pinTask,
  unpin: unpinTask,
  similarities: similaritiesRouter,
});
