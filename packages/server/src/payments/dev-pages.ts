import formbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import { csrfInput, csrfToken, csrfValid, CSRF_FIELD } from '../platform/pages/csrf.js';
import { formBody, text } from '../platform/pages/forms.js';
import { html } from '../platform/pages/html.js';
import { redirectSource, sendPage } from '../platform/pages/send-page.js';
import { DEV_CHECKOUT_PATH, DEV_INVOICE_PATH, DEV_PAYMENT_PATH, DEV_RECEIPT_PATH, DEV_SUBSCRIPTIONS_PATH, type DevProvider } from './dev-provider.js';

const branding = { name: 'Development payments', logoUrl: null, accentColor: '#b42318' };
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The development provider's checkout page (a test page, said on the page itself): a click pays,
 * fails, or saves a card, and the provider sends the events Stripe would to the webhook path.
 * Forms carry a CSRF token and post to this host only.
 */
export function devCheckoutPages(provider: DevProvider, options: { origin: string; secureCookies: boolean }): FastifyPluginAsync {
  return async (app) => {
    await app.register(formbody, { bodyLimit: 16 * 1024 });
    // What the owner would do in the provider's dashboard, and the payer's bank: refund (all that
    // is left, or half of it) and dispute (then close it won or lost), each sent as Stripe's event.
    const reversals = async (request: Parameters<typeof csrfToken>[0], reply: Parameters<typeof csrfToken>[1], id: string) => {
      const payment = await provider.payment(id);
      if (!payment) return '';
      const csrf = csrfInput(csrfToken(request, reply, options.secureCookies));
      const action = `${DEV_PAYMENT_PATH}/${id}`;
      const button = (what: string, label: string) => html`<form method="post" action="${action}">${csrf}<input type="hidden" name="action" value="${what}"><button type="submit" class="secondary" data-action="${what}">${label}</button></form>`;
      const left = payment.amountCents - payment.amountRefunded;
      return html`<h2>Refunds and disputes</h2><p id="refunded">Refunded ${money(payment.amountRefunded)} of ${money(payment.amountCents)}${payment.dispute ? html` · dispute <span id="dispute-status">${payment.dispute.status}</span>` : ''}</p>${
        left > 0 ? html`${button('refund', `Refund ${money(left)}`)}${left > 1 ? button('refund_half', `Refund ${money(Math.floor(left / 2))}`) : ''}` : ''
      }${!payment.dispute ? button('dispute', 'Dispute the payment') : payment.dispute.status === 'needs_response' ? html`${button('dispute_won', 'Close the dispute: won')}${button('dispute_lost', 'Close the dispute: lost')}` : ''}`;
    };

    const banner = html`<p class="error" role="note"><strong>TEST PAGE</strong> · development payments provider. No card is charged and no money moves.</p>`;

    app.get<{ Params: { id: string } }>(`${DEV_CHECKOUT_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const session = /^cs_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id) ? await provider.checkout(request.params.id) : null;
      if (!session) return sendPage(reply, { title: 'Not found', branding, status: 404, body: html`${banner}<h1>No such checkout</h1>` });
      if (session.status === 'expired') {
        return sendPage(reply, { title: 'Expired', branding, status: 410, body: html`${banner}<h1>This checkout has expired</h1><p>What it offered is no longer on sale. <a href="${session.cancel_url}">Go back</a></p>` });
      }
      if (session.status !== 'open') {
        return sendPage(reply, { title: 'Done', branding, body: html`${banner}<h1>This checkout is complete</h1><p><a href="${session.success_url}">Continue</a></p>` });
      }
      const csrf = csrfInput(csrfToken(request, reply, options.secureCookies));
      const declined = (request.query as Record<string, unknown>).declined === '1';
      const action = `${DEV_CHECKOUT_PATH}/${session.id}`;
      const button = (outcome: string, label: string, secondary = false) =>
        html`<form method="post" action="${action}">${csrf}<input type="hidden" name="outcome" value="${outcome}"><button type="submit" class="${secondary ? 'secondary' : ''}" data-outcome="${outcome}">${label}</button></form>`;
      const what =
        session.mode === 'setup'
          ? html`<h1>Save a card</h1><p>${session.description}</p>${button('save', 'Save a card that works')}${button('save_declining', 'Save a card that will be declined later', true)}`
          : html`<h1>${session.description}</h1><p><strong>${money(session.amount_cents)}${session.mode === 'subscription' ? ' / month' : ''}</strong></p>${button('pay', `Pay ${money(session.amount_cents)}`)}${
              // A card that pays now and is declined at every renewal: the subscription then goes past_due.
              session.mode === 'subscription' ? button('pay_declining', 'Pay now with a card that will be declined at renewal', true) : ''
            }${button('fail', 'Decline the payment', true)}`;
      return sendPage(reply, {
        title: 'Test checkout',
        branding,
        // Paying redirects to the success page, and browsers hold a form's redirects to form-action.
        formActions: [redirectSource(session.success_url)],
        body: html`${banner}${declined ? html`<p class="error" role="alert">The test card was declined. Try again or go back.</p>` : ''}${what}<p class="note"><a href="${session.cancel_url}">Cancel and go back</a></p>`,
      });
    });

    // The receipt link of receipt mails (Stripe's receipt page, offline): who was paid, how much.
    app.get<{ Params: { id: string } }>(`${DEV_RECEIPT_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const receipt = /^(cs|pi)_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id) ? await provider.receipt(request.params.id) : null;
      if (!receipt) return sendPage(reply, { title: 'Not found', branding, status: 404, body: html`${banner}<h1>No such receipt</h1>` });
      return sendPage(reply, {
        title: 'Test receipt',
        branding,
        body: html`${banner}<h1>Receipt</h1><p>${receipt.description}</p><p><strong id="receipt-amount">${money(receipt.amountCents)}</strong> paid ${receipt.paidAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</p><p class="note">Reference <code>${receipt.id}</code></p>${await reversals(request, reply, receipt.id)}`,
      });
    });

    // An invoice's page (Stripe's hosted invoice page, offline): a receipt once paid; while a
    // declined renewal leaves it open, a button pays it with a card that works.
    app.get<{ Params: { id: string } }>(`${DEV_INVOICE_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const invoice = /^in_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id) ? await provider.invoice(request.params.id) : null;
      if (!invoice) return sendPage(reply, { title: 'Not found', branding, status: 404, body: html`${banner}<h1>No such invoice</h1>` });
      const pay =
        invoice.status === 'open'
          ? html`<p id="invoice-status">Open: the card on file was declined.</p><form method="post" action="${DEV_INVOICE_PATH}/${invoice.id}">${csrfInput(csrfToken(request, reply, options.secureCookies))}<button type="submit" data-outcome="pay-invoice">Pay ${money(invoice.amount_cents)} with a card that works</button></form>`
          : html`<p id="invoice-status">Paid.</p>`;
      return sendPage(reply, {
        title: 'Test invoice',
        branding,
        body: html`${banner}<h1>Invoice</h1><p><strong id="invoice-amount">${money(invoice.amount_cents)}</strong> · ${invoice.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</p>${pay}<p class="note">Reference <code>${invoice.id}</code></p>${await reversals(request, reply, invoice.id)}`,
      });
    });

    app.post<{ Params: { id: string } }>(`${DEV_INVOICE_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const body = formBody(request.body);
      if (!csrfValid(request, body[CSRF_FIELD], options.origin)) return sendPage(reply, { title: 'Refused', branding, status: 403, body: html`${banner}<h1>This form has expired</h1><p>Go back and try again.</p>` });
      if (!/^in_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id)) return reply.status(404).send();
      // Paid before (a second click): the page says so.
      await provider.payInvoice(request.params.id);
      return reply.redirect(`${DEV_INVOICE_PATH}/${request.params.id}`, 303);
    });

    // Refund or dispute a payment; back to the page it was asked from (its receipt or invoice).
    app.post<{ Params: { id: string } }>(`${DEV_PAYMENT_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const body = formBody(request.body);
      if (!csrfValid(request, body[CSRF_FIELD], options.origin)) return sendPage(reply, { title: 'Refused', branding, status: 403, body: html`${banner}<h1>This form has expired</h1><p>Go back and try again.</p>` });
      const id = request.params.id;
      const payment = /^(cs|pi|in)_dev_[A-Za-z0-9]{1,40}$/.test(id) ? await provider.payment(id) : null;
      if (!payment) return sendPage(reply, { title: 'Not found', branding, status: 404, body: html`${banner}<h1>No such payment</h1>` });
      const action = text(body, 'action');
      const left = payment.amountCents - payment.amountRefunded;
      if (action === 'refund') await provider.refund(id);
      else if (action === 'refund_half') await provider.refund(id, Math.floor(left / 2));
      else if (action === 'dispute') await provider.dispute(id, 'open');
      else if (action === 'dispute_won') await provider.dispute(id, 'won');
      else if (action === 'dispute_lost') await provider.dispute(id, 'lost');
      return reply.redirect(`${payment.kind === 'invoice' ? DEV_INVOICE_PATH : DEV_RECEIPT_PATH}/${id}`, 303);
    });

    // The subscriptions of an API as the provider holds them (Stripe's dashboard, offline), for
    // checks such as "one live subscription, billed once per period".
    app.get<{ Querystring: { api?: string } }>(`${DEV_SUBSCRIPTIONS_PATH}.json`, { schema: { hide: true } }, async (request) => ({ subscriptions: await provider.subscriptionsOfApi(String(request.query.api ?? '')) }));

    // The test clock (Stripe's test clocks, offline): the subscription's period ends now, and it
    // renews, or ends when it was canceled at the period's end.
    app.post<{ Params: { id: string } }>(`${DEV_SUBSCRIPTIONS_PATH}/:id/end-period`, { schema: { hide: true } }, async (request, reply) => {
      const body = formBody(request.body);
      if (!csrfValid(request, body[CSRF_FIELD], options.origin)) return sendPage(reply, { title: 'Refused', branding, status: 403, body: html`${banner}<h1>This form has expired</h1><p>Go back and try again.</p>` });
      if (!/^sub_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id)) return reply.status(404).send();
      await provider.endPeriodNow(request.params.id);
      return reply.redirect(`${DEV_SUBSCRIPTIONS_PATH}/${request.params.id}`, 303);
    });

    app.get<{ Params: { id: string } }>(`${DEV_SUBSCRIPTIONS_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const sub = /^sub_dev_[A-Za-z0-9]{1,40}$/.test(request.params.id) ? await provider.subscription(request.params.id) : null;
      if (!sub) return sendPage(reply, { title: 'Not found', branding, status: 404, body: html`${banner}<h1>No such subscription</h1>` });
      const csrf = csrfInput(csrfToken(request, reply, options.secureCookies));
      return sendPage(reply, {
        title: 'Test subscription',
        branding,
        body: html`${banner}<h1>Subscription</h1><p id="subscription-status">${sub.status}${sub.cancelAtPeriodEnd ? ' (ends with its period)' : ''}</p><p>${money(sub.amountCents)} / month · period ends ${new Date(sub.periodEnd * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC · ${sub.invoices} invoice(s)</p>${
          sub.status === 'canceled' ? '' : html`<form method="post" action="${DEV_SUBSCRIPTIONS_PATH}/${sub.id}/end-period">${csrf}<button type="submit" data-action="end-period">End the period now (test clock)</button></form>`
        }`,
      });
    });

    app.post<{ Params: { id: string } }>(`${DEV_CHECKOUT_PATH}/:id`, { schema: { hide: true } }, async (request, reply) => {
      const body = formBody(request.body);
      if (!csrfValid(request, body[CSRF_FIELD], options.origin)) return sendPage(reply, { title: 'Refused', branding, status: 403, body: html`${banner}<h1>This form has expired</h1><p>Go back and try again.</p>` });
      const id = request.params.id;
      const outcome = text(body, 'outcome');
      if (!/^cs_dev_[A-Za-z0-9]{1,40}$/.test(id)) return reply.status(404).send();
      if (outcome === 'fail') {
        await provider.declineCheckout(id);
        return reply.redirect(`${DEV_CHECKOUT_PATH}/${id}?declined=1`, 303);
      }
      if (!['pay', 'pay_declining', 'save', 'save_declining'].includes(outcome)) return reply.redirect(`${DEV_CHECKOUT_PATH}/${id}`, 303);
      const done = await provider.completeCheckout(id, { declineLater: outcome === 'save_declining', declineRenewals: outcome === 'pay_declining' });
      // Completed already (a second click): the page says so.
      return reply.redirect(done ? done.redirect : `${DEV_CHECKOUT_PATH}/${id}`, 303);
    });
  };
}
