import { composeMail } from '../platform/mail/templates.js';
import { formatTime } from '../platform/format.js';

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
