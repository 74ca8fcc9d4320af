import { Type } from '@sinclair/typebox';
import { Body } from '../console/common-schemas.js';

export { PaymentsOut } from '../apis/schemas.js';

/** spec 2.3 PlanCheckoutInBody. */
export const PlanCheckoutInBody = Body({ plan_code: Type.String({ minLength: 1, maxLength: 32 }) });
/** Where to send the browser next: a hosted onboarding or checkout page. */
export const UrlBody = Type.Object({ url: Type.String() });
