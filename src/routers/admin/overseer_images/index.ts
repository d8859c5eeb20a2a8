import { router } from '../../../trpc/core.ts';
import { createOverseerImage } from './create.ts';
import { deleteOverseerImage } from './delete.ts';
import { listOverseerImages } from './list.ts';
import { pullOverseerImage } from './pull.ts';
import { updateOverseerImage } from './update.ts';

export const overseerImagesRouter = router({
  list: listOverseerImages,
  create: createOverseerImage,
  update: updateOverseerImage,
  delete: deleteOverseerImage,
  pullImage: pullOverseerImage,
});
