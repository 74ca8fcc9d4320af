import { composeMail } from '../platform/mail/templates.js';
import { formatCents, formatMicro, formatTime } from '../platform/format.js';

// Mails about a customer's money (issue 13): receipts, a low balance, a failed automatic top-up.
// They go to the people of the customer (the payer, or its owners and admins), in the API's name.

export const receipt = (to: string, apiName: string, customerName: string, kind: 'topup' | 'auto_recharge', amountCents: number, creditMicro: number, link: { url: string; isReceipt: boolean }) =>
  composeMail(
    to,
    `Your receipt from ${apiName}: ${formatCents(amountCents)}`,
    [
      `${kind === 'topup' ? 'Thank you for your top-up' : 'Your card was charged for an automatic top-up'} of ${formatCents(amountCents)} for ${customerName} on ${apiName}.`,
      `${formatMicro(creditMicro)} of credit was added to the balance.`,
      link.isReceipt ? 'The payment provider keeps the receipt:' : 'Your payments are listed on the billing page of the portal.',
    ],
    { label: link.isReceipt ? 'View the receipt' : 'Open billing', url: link.url },
  );

export const autoRechargeFailed = (to: string, apiName: string, customerName: string, amountCents: number, reason: string, billingUrl: string) =>
  composeMail(
    to,
    `An automatic top-up of ${customerName} on ${apiName} failed`,
    [
      `We could not charge the saved card ${formatCents(amountCents)} for ${customerName} on ${apiName} (${reason}).`,
      'Automatic top-ups are paused until you save a card again or turn them back on.',
    ],
    { label: 'Open billing', url: billingUrl },
  );

export const lowBalance = (to: string, apiName: string, customerName: string, balanceMicro: number, thresholdMicro: number, billingUrl: string) =>
  composeMail(
    to,
    `The balance of ${customerName} on ${apiName} is low`,
    [
      `The balance of ${customerName} on ${apiName} is ${formatMicro(balanceMicro)}, below ${formatMicro(thresholdMicro)}.`,
      'Requests are refused once it runs out. Add credit to keep going; we will not write again until the balance is back at this line or above.',
    ],
    { label: 'Add credit', url: billingUrl },
  );

export const planPaymentFailed = (to: string, apiName: string, customerName: string, planName: string, amountCents: number, graceEnds: Date, payUrl: string) =>
  composeMail(
    to,
    `The payment for the ${planName} plan of ${customerName} on ${apiName} failed`,
    [
      `We could not collect ${formatCents(amountCents)} for the ${planName} plan of ${customerName} on ${apiName}. The payment provider will try the card again.`,
      `The plan stays in place until ${formatTime(graceEnds)}. If it is still unpaid then, ${customerName} goes back to the API's standard limits until the invoice is paid.`,
    ],
    { label: 'Pay the invoice', url: payUrl },
  );

// Mails to an API's workspace owners about its platform plan (issue 23 item 1): the plan went past
// due, its grace is about to end, it ended. The platform's own provider account may mail receipts
// and card failures too; these say what happens to the API.

export const platformPastDue = (to: string, apiName: string, planName: string, graceUntil: Date | null, planUrl: string) =>
  composeMail(
    to,
    `The payment for the ${planName} plan of ${apiName} failed`,
    [
      `We could not collect the renewal of the ${planName} platform plan of ${apiName}. The payment provider will try the card again.`,
      graceUntil ? `${apiName} keeps the ${planName} plan until ${formatTime(graceUntil)}; if it is still unpaid then, it moves to the free plan and its limits.` : `If it stays unpaid, ${apiName} moves to the free plan.`,
    ],
    { label: 'Open the plan', url: planUrl },
  );

export const platformGraceEnding = (to: string, apiName: string, planName: string, graceUntil: Date, planUrl: string) =>
  composeMail(
    to,
    `${apiName} leaves the ${planName} plan on ${formatTime(graceUntil)}`,
    [
      `The renewal of the ${planName} platform plan of ${apiName} is still unpaid.`,
      `On ${formatTime(graceUntil)} ${apiName} moves to the free plan and its limits, unless the invoice is paid before.`,
    ],
    { label: 'Open the plan', url: planUrl },
  );

export const platformCanceled = (to: string, apiName: string, planName: string, why: string, planUrl: string) =>
  composeMail(
    to,
    `The ${planName} plan of ${apiName} has ended`,
    [`The ${planName} platform plan of ${apiName} has ended (${why}). ${apiName} is on the free plan and its limits now; you can buy a plan again at any time.`],
    { label: 'Open the plan', url: planUrl },
  );
