// Applied in this order. Each migration is listed by hand so that no file discovery is needed at start.
import { Migration00001Initial } from './Migration00001Initial.ts';

export const migrationsList = [{ name: 'Migration00001Initial', class: Migration00001Initial }];
