import { composeMail } from '../platform/mail/templates.js';

// Mails to the person who owns an end-user key (spec 6). Key names and app names are chosen by
// people and owners; they go into the text only, never the subject line.

const when = (at: Date) => at.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

export const newKey = (to: string, apiName: string, key: { name: string; start: string; appName: string; createdAt: Date }, keysPageUrl: string) =>
  composeMail(
    to,
    `A new API key was created for your ${apiName} account`,
    [
      `A new API key "${key.name}" (${key.start}…) was created for your ${apiName} account in ${key.appName} on ${when(key.createdAt)}.`,
      'If this was not you, revoke the key on your keys page and change your password.',
    ],
    { label: 'Your API keys', url: keysPageUrl },
  );

export const expiryReminder = (to: string, apiName: string, key: { name: string; start: string; expiresAt: Date }, keysPageUrl: string) =>
  composeMail(
    to,
    `Your ${apiName} API key expires in 7 days`,
    [
      `Your API key "${key.name}" (${key.start}…) expires on ${when(key.expiresAt)}. It was used in the last 30 days.`,
      'Create a new key before then and move what uses this one over to it.',
    ],
    { label: 'Your API keys', url: keysPageUrl },
  );
