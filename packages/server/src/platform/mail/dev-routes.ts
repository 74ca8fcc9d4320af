import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.js';
import { recentMails } from './queries.js';
import { escapeHtml } from './templates.js';

/** Development only: the outbox, so sign-up codes and invitations can be read without SMTP. */
export function devMailRoutes(services: { db: Db }): FastifyPluginAsync {
  return async (app) => {
    app.get('/dev/mail.json', { schema: { hide: true } }, async () => {
      const mails = await recentMails(services.db, 50);
      return { mails: mails.map((m) => ({ id: m.id, to: m.to_address, subject: m.subject, text: m.text_body, created_at: m.created_at.toISOString(), sent: m.sent_at !== null })) };
    });
    app.get('/dev/mail', { schema: { hide: true } }, async (_request, reply) => {
      const mails = await recentMails(services.db, 50);
      const items = mails
        .map((m) => `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to_address)} · ${m.created_at.toISOString()}</p><pre>${escapeHtml(m.text_body)}</pre></article>`)
        .join('');
      return reply
        .type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title></head><body style="font-family:sans-serif"><h1>Dev outbox</h1><p>Newest first. Only outside production.</p>${items || '<p>No mail yet.</p>'}</body></html>`);
    });
  };
}
