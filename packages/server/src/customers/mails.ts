import { composeMail } from '../platform/mail/templates.js';

// Mails to the people of an API's customers. An invitation goes to an address the sender typed,
// so its subject is fixed text: a subject is what a spam filter and a reader judge a mail by, and
// anyone who signs up (to Gatehouse, or on an open portal) chooses an API's, a customer's or their
// own name. Those names go in the body, escaped in its HTML part by composeMail. Sending is also
// rate-limited (workspaces/invitation-limits.ts).

export const becomeCustomer = (to: string, apiName: string, url: string) =>
  composeMail(
    to,
    'You are invited to become a customer',
    [`You are invited to use ${apiName}.`, 'Sign up with this e-mail address to get your API keys. The invitation works once and expires in 7 days.'],
    { label: `Join ${apiName}`, url },
  );

export const joinCustomer = (to: string, inviter: string, customerName: string, apiName: string, role: string, url: string) =>
  composeMail(
    to,
    'You are invited to join a team',
    [`${inviter} invited you to join ${customerName} on ${apiName} as ${role}.`, 'The invitation works once and expires in 7 days.'],
    { label: 'Accept the invitation', url },
  );

export const approved = (to: string, apiName: string, portalUrl: string) =>
  composeMail(to, `Your access to ${apiName} is approved`, [`Your request to use ${apiName} was approved. You can create your API keys now.`], { label: `Open ${apiName}`, url: portalUrl });

export const declined = (to: string, apiName: string) =>
  composeMail(to, `Your request to use ${apiName} was declined`, [`Your request to use ${apiName} was declined.`, 'If you think this is a mistake, reply to the team that runs it.']);
