import { Type } from '@sinclair/typebox';
import { Body } from '../console/common-schemas.js';
import { MAX_DOMAIN_LENGTH } from './host-name.js';

// Spec 2.1 DomainInBody. DomainOut is part of ApiOut, so it lives beside it (apis/schemas.ts).
export const DomainInBody = Body({
  domain: Type.String({ minLength: 1, maxLength: MAX_DOMAIN_LENGTH, description: 'a host name of your own, such as login.example.com; not under the portal domain or the console\'s host' }),
});

export { DomainOut } from '../apis/schemas.js';

/** Caddy's on-demand TLS `ask`: the name a certificate is wanted for. */
export const TlsAllowedQuery = Type.Object({ domain: Type.String({ maxLength: 300 }) });
