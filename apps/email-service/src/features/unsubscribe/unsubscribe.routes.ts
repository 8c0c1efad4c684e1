// GET/POST /api/email/unsubscribe: the link in List-Unsubscribe and in the mail footer.
// GET only shows a confirmation page with a form: link scanners and previews follow GETs, so a GET changes
// nothing. POST (the form, or the RFC 8058 one-click body `List-Unsubscribe=One-Click` a mail client sends to
// the List-Unsubscribe URL) applies it. The token comes from the query or the form body.
// Both answer HTML pages and stay out of the OpenAPI document (hide): they are for people, not clients.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses } from '@story/http';
import { escapeHtml } from '@story/email';
import type { UnsubscribeService, UnsubscribeTarget } from './unsubscribe.service';

const PATH = '/api/email/unsubscribe';

const CATEGORY_LABEL: Record<string, string> = {
  marketing: 'news and offers',
  onboarding: 'getting-started tips',
  reminder: 'reminders',
  all: 'all optional emails',
};

const labelOf = (target: UnsubscribeTarget) => CATEGORY_LABEL[target.category] ?? `${target.category} emails`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const INVALID = page('This link is not valid', '<p>The unsubscribe link is invalid or has expired. You can change your email settings in your account.</p>');

/** A token in any other shape (repeated, not a string) is no token: the page says the link is invalid. */
const tokenField = z.string().optional().catch(undefined);
const tokenSource = z.looseObject({ token: tokenField });
const tokenOf = (source: { token?: string } | undefined) => (source?.token ? source.token : undefined);

// The pages are text/html (sent as strings, never serialized); errors of the shared plumbing keep the email shape.
const htmlPage = z.string().describe('HTML page');
const responses = { 200: htmlPage, 400: z.union([htmlPage, emailErrorSchema]), ...errorResponses(emailErrorSchema, [413, 429] as const) };
const tags = ['unsubscribe'];

export const unsubscribeRoutes =
  ({ unsubscribe }: { unsubscribe: UnsubscribeService }): FastifyPluginAsyncZod =>
  async (app) => {
    // Form posts and RFC 8058 one-click posts; a tiny parser scoped to this plugin.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    // Some clients send the one-click POST as multipart/form-data or without a type: the body is not needed then.
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

    app.get(
      PATH,
      { schema: { operationId: 'showUnsubscribePage', tags, summary: 'Unsubscribe confirmation page (changes nothing)', hide: true, querystring: tokenSource, response: responses } },
      async (request, reply) => {
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        const token = tokenOf(request.query);
        const target = unsubscribe.preview(token);
        if (!token || !target) return reply.code(400).send(INVALID);
        return reply.send(
          page(
            'Unsubscribe',
            `<p>Stop sending ${escapeHtml(labelOf(target))} to <strong>${escapeHtml(target.email)}</strong>?</p>
<form method="post" action="${PATH}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Unsubscribe</button></form>`,
          ),
        );
      },
    );

    app.post(
      PATH,
      {
        schema: {
          operationId: 'applyUnsubscribe',
          tags,
          summary: 'Apply an unsubscribe (form or RFC 8058 one-click)',
          hide: true,
          querystring: tokenSource,
          // A body that is no object (a JSON string or array) carries no token: the query's is used then.
          body: tokenSource.optional().catch(undefined),
          response: responses,
        },
      },
      async (request, reply) => {
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        const target = await unsubscribe.apply(tokenOf(request.body) ?? tokenOf(request.query));
        if (!target) return reply.code(400).send(INVALID);
        return reply.send(page('You are unsubscribed', `<p>We will no longer send ${escapeHtml(labelOf(target))} to <strong>${escapeHtml(target.email)}</strong>.</p>`));
      },
    );
  };
