import { Webcal, WebcalUnitExclusion, type IWebcal } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { toWebcal, type WebcalOut } from './schemas.ts';

export function findWebcal(em: Em, userId: number): Promise<IWebcal | null> {
  return em.findOne(Webcal, { user: userId });
}

/** The settings answer for a calendar: one more query for its excluded units. */
export async function webcalSettings(em: Em, webcal: IWebcal): Promise<WebcalOut> {
  const exclusions = await em.find(WebcalUnitExclusion, { webcal: webcal.id }, { orderBy: { unit: 'asc' } });
  return toWebcal(
    webcal,
    exclusions.map((e) => e.unit.id),
  );
}
