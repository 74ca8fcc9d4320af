import { composeMail } from '../platform/mail/templates.js';

// Fixed subject: the inviter's and the workspace's names are chosen by whoever signs up, so they
// go in the body (escaped in its HTML part), never in the subject (customers/mails.ts says why).
export const invitation = (to: string, inviter: string, workspace: string, role: string, url: string) =>
  composeMail(
    to,
    'You are invited to a workspace on Gatehouse',
    [`${inviter} invited you to join the workspace ${workspace} as ${role}.`, 'The invitation works once and expires in 7 days.'],
    { label: 'Accept the invitation', url },
  );
