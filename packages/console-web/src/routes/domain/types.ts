import type { ResponseOf } from '../../api/records.js';
import { key } from '../../app/query-keys.js';

export type DomainOut = ResponseOf<'/api/apis/{api}/domain', 'get'>;
export const domainKey = (apiId: string) => key('/api/apis/{api}/domain', apiId);
