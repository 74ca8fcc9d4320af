import type { PlanOut, RequestOf } from '../../api/records.js';
import { key } from '../../app/query-keys.js';

export type { PlanOut };
export type PlanFields = RequestOf<'/api/apis/{api}/plans', 'post'>;
export const plansKey = (apiId: string) => key('/api/apis/{api}/plans', apiId);
