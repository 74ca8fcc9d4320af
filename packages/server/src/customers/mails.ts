import { composeMail } from '../platform/mail/templates.js';

// Mails to the people of an API's customers. Subjects carry names owners chose (the API's, a
// customer's), which is why sending them is rate-limited (workspaces/invitation-limits.ts).

export const becomeCustomer = (to: string, apiName: string, url: string) =>
  composeMail(
    to,
    `You are invited to use ${apiName}`,
    [`You are invited to use ${apiName}.`, 'Sign up with this e-mail address to get your API keys. The invitation works once and expires in 7 days.'],
    { label: `Join ${apiName}`, url },
  );

export const joinCustomer = (to: string, inviter: string, customerName: string, apiName: string, role: string, url: string) =>
  composeMail(
    to,
    `${inviter} invited you to ${customerName} on ${apiName}`,
    [`${inviter} invited you to join ${customerName} on ${apiName} as ${role}.`, 'The invitation works once and expires in 7 days.'],
    { label: 'Accept the invitation', url },
  );

export const approved = (to: string, apiName: string, portalUrl: string) =>
  composeMail(to, `Your access to ${apiName} is approved`, [`Your request to use ${apiName} was approved. You can create your API keys now.`], { label: `Open ${apiName}`, url: portalUrl });

export const declined = (to: string, apiName: string) =>
  composeMail(to, `Your request to use ${apiName} was declined`, [`Your request to use ${apiName} was declined.`, 'If you think this is a mistake, reply to the team that runs it.']);
