import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unwrap } from '../platform/errors.js';
import { ApiParams } from '../apis/schemas.js';
import { DEFAULT_PAGE_SIZE, withProblems } from '../console/common-schemas.js';
import { CustomerParams } from '../customers/schemas.js';
import { requireCaller } from '../console/http.js';
import { CreditBody, CreditInBody, LedgerBody, LedgerQuery } from './schemas.js';
import type { LedgerService } from './service.js';

export function ledgerRoutes(ledger: LedgerService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['ledger'];
    app.post('/apis/:api/customers/:id/credit', {
      schema: { tags, summary: 'Add or remove credit (editor); idempotent by ref', params: CustomerParams, body: CreditInBody, response: withProblems({ 200: CreditBody }, 409) },
    }, async (request) => unwrap(await ledger.credit(requireCaller(request), request.params.api, request.params.id, request.body)));

    app.get('/apis/:api/ledger', {
      schema: { tags, summary: 'Ledger entries, newest first, for the API or one customer, of every kind or one', params: ApiParams, querystring: LedgerQuery, response: withProblems({ 200: LedgerBody }) },
    }, async (request) => {
      const { customer_id, kind, cursor, limit } = request.query;
      return ledger.list(requireCaller(request), request.params.api, { limit: limit ?? DEFAULT_PAGE_SIZE, ...(customer_id ? { customerId: customer_id } : {}), ...(kind ? { kind } : {}), ...(cursor ? { cursor } : {}) });
    });
  };
}
