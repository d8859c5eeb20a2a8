// /api/csv/users: the users CSV (beyond-spec.md §5; behaviour.md §9.3).
import { router } from '../../../trpc/core.ts';
import { download } from './download.ts';
import { upload } from './upload.ts';

export const userCsvRouter = router({ download, upload });
