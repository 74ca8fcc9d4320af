import { composeMail } from '../platform/mail/templates.js';

export const invitation = (to: string, inviter: string, workspace: string, role: string, url: string) =>
  composeMail(
    to,
    `${inviter} invited you to ${workspace} on Gatehouse`,
    [`${inviter} invited you to join the workspace ${workspace} as ${role}.`, 'The invitation works once and expires in 7 days.'],
    { label: 'Accept the invitation', url },
  );
