// POST /api/campuses and PUT /api/campuses/{id}: a campus created, or changed field by field.
import { Campus, type ICampus } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import type { CampusMode } from '../../domain/vocabulary.ts';
import { findOr404 } from '../../db/lookup.ts';

export interface CampusFields {
  name: string;
  mode: CampusMode;
  abbreviation: string;
  active: boolean;
}

/** Creates a campus; a duplicate name or abbreviation hits a unique index and becomes a 400. */
export async function createCampus(em: Em, fields: CampusFields): Promise<ICampus> {
  const campus = em.create(Campus, fields);
  await em.flush();
  return campus;
}

/** Changes the fields given (the web client sends only the changed ones); 404 for an unknown id. */
export async function updateCampus(em: Em, campusId: number, fields: Partial<CampusFields>): Promise<ICampus> {
  const campus = await findOr404(em, Campus, campusId);
  em.assign(campus, fields);
  await em.flush();
  return campus;
}
