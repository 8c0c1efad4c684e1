// GET/POST /api/email/unsubscribe: the link in List-Unsubscribe and in the mail footer.
// GET only shows a confirmation page with a form: link scanners and previews follow GETs, so a GET changes
// nothing. POST (the form, or the RFC 8058 one-click body `List-Unsubscribe=One-Click` a mail client sends to
// the List-Unsubscribe URL) applies it. The token comes from the query or the form body.
import type { DbClient } from '@story/db';
import type { App } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import { applyUnsubscribe, createUnsubscribeTokens, escapeHtml } from '@story/email';

const PATH = '/api/email/unsubscribe';

const CATEGORY_LABEL: Record<string, string> = {
  marketing: 'news and offers',
  onboarding: 'getting-started tips',
  reminder: 'reminders',
  all: 'all optional emails',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function tokenFrom(query: unknown, body: unknown): string | undefined {
  for (const source of [body, query]) {
    if (source && typeof source === 'object') {
      const token = (source as Record<string, unknown>)['token'];
      if (typeof token === 'string' && token.length > 0) return token;
    }
  }
  return undefined;
}

export function unsubscribeRoutes({ config, database }: { config: EmailServiceConfig; database: DbClient }) {
  const tokens = createUnsubscribeTokens(config.secrets.jwtSecret);
  const invalid = page('This link is not valid', '<p>The unsubscribe link is invalid or has expired. You can change your email settings in your account.</p>');

  return async function unsubscribePlugin(app: App) {
    // Form posts and RFC 8058 one-click posts; a tiny parser scoped to this plugin.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    // Some clients send the one-click POST as multipart/form-data or without a type: the body is not needed then.
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

    app.get(PATH, { schema: { tags: ['unsubscribe'], summary: 'Unsubscribe confirmation page (changes nothing)', hide: true } }, async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const token = tokenFrom(request.query, undefined);
      const payload = token ? tokens.verify(token) : null;
      if (!token || !payload) return reply.code(400).send(invalid);
      const label = CATEGORY_LABEL[payload.category] ?? `${payload.category} emails`;
      return reply.send(
        page(
          'Unsubscribe',
          `<p>Stop sending ${escapeHtml(label)} to <strong>${escapeHtml(payload.email)}</strong>?</p>
<form method="post" action="${PATH}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    });

    app.post(PATH, { schema: { tags: ['unsubscribe'], summary: 'Apply an unsubscribe (form or RFC 8058 one-click)', hide: true } }, async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const token = tokenFrom(request.query, request.body);
      const payload = token ? tokens.verify(token) : null;
      if (!payload) return reply.code(400).send(invalid);
      const applied = await applyUnsubscribe(database.db, payload);
      if (!applied) return reply.code(400).send(invalid);
      const label = CATEGORY_LABEL[payload.category] ?? `${payload.category} emails`;
      return reply.send(page('You are unsubscribed', `<p>We will no longer send ${escapeHtml(label)} to <strong>${escapeHtml(payload.email)}</strong>.</p>`));
    });
  };
}
