// Public pages served by tools-api: /{tool}/ (landing), /{tool}/browse/ (public list), /{tool}/{shareCode}/
// (one item; noindex unless public) and /embed/{tool}/{shareCode}/ (the framable variant for third-party sites).
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ToolRoute } from '@story/db';
import { escapeHtml, routeMedia } from '@story/http';
import type { BrowseService } from '../browse/browse.service';
import { isToolRoute } from '../../shared/tool-param';
import { toolDefinition } from '../../tools';
import { fitDescription } from '../../tools/seo';
import { pageHeaders, renderBookBlurb, renderEmbedOffer, renderFlashcards, renderFlipbook, renderPage, renderValue } from './render';

const html = z.string();
/** The pages are text/html, found or not (spec 002 "Public page routes"). */
const htmlAnswers = routeMedia({ answers: { 200: { types: ['text/html'], description: 'The page' }, 404: { types: ['text/html'], description: 'The not-found page' } } });

/** What made the item, as stored (is_ai_generated, ai_model): an AI model is named only when one wrote it. */
const madeByLine = (ai: { model: string | null; isAiGenerated: boolean }) =>
  ai.isAiGenerated ? `written by the AI model ${ai.model ?? 'unknown'}` : ai.model ? 'made by the offline generator, no AI model' : 'taken from the uploaded file';

export const pagesRoutes =
  (deps: { browse: BrowseService; publicBaseUrl: string }): FastifyPluginAsyncZod =>
  async (app) => {
    const base = deps.publicBaseUrl;

    function send(reply: FastifyReply, status: number, page: string, embed = false) {
      reply.headers(pageHeaders(embed));
      if (embed) reply.removeHeader('X-Frame-Options');
      return reply.status(status).type('text/html; charset=utf-8').send(page);
    }

    const notFound = (reply: FastifyReply, embed = false) =>
      send(
        reply,
        404,
        renderPage({ title: 'Not found | Family Stories free writing tools', description: 'This page does not exist or has expired.', canonical: `${base}/`, noindex: true, body: '<h1>Not found</h1><p>This page does not exist, or the link has expired.</p>', embed }),
        embed,
      );

    const itemList = (tool: ToolRoute, items: { shareCode: string; title: string; seoDescription: string | null }[]) =>
      items.length
        ? `<ul class="items">${items.map((i) => `<li><a href="${escapeHtml(`${base}/${tool}/${i.shareCode}/`)}">${escapeHtml(i.title)}</a><br><span class="meta">${escapeHtml(i.seoDescription ?? '')}</span></li>`).join('')}</ul>`
        : '<p>Nothing here yet.</p>';

    app.get('/:tool', { schema: { operationId: 'toolPageRedirect', tags: ['pages'], hide: true, params: z.object({ tool: z.string() }), response: { 301: html, 404: html } } }, async (req, reply) => {
      if (!isToolRoute(req.params.tool)) return notFound(reply);
      return reply.redirect(`/${req.params.tool}/`, 301);
    });

    app.get(
      '/:tool/',
      { schema: { operationId: 'toolLandingPage', summary: 'Public landing page of a tool (HTML)', tags: ['pages'], params: z.object({ tool: z.string() }), ...htmlAnswers, response: { 200: html, 404: html } } },
      async (req, reply) => {
        if (!isToolRoute(req.params.tool)) return notFound(reply);
        const tool = req.params.tool;
        const def = toolDefinition(tool);
        // Two index-friendly reads (featured flag, newest first) rather than one sort over every public row.
        const [featured, recent] = await Promise.all([
          deps.browse.browse(tool, { page: 1, limit: 6, sort: 'newest', featured: true }),
          deps.browse.browse(tool, { page: 1, limit: 12, sort: 'newest' }),
        ]);
        const canonical = `${base}/${tool}/`;
        const body = `<h1>${escapeHtml(def.title)}</h1><p>${escapeHtml(def.description)}</p>
<p><a href="${escapeHtml(`${canonical}browse/`)}">Browse everything made with the ${escapeHtml(def.title)}</a></p>
${featured.items.length ? `<h2>Featured</h2>${itemList(tool, featured.items)}` : ''}<h2>Recent</h2>${itemList(tool, recent.items)}`;
        return send(
          reply,
          200,
          renderPage({
            title: `${def.title}: free online tool | Family Stories`,
            description: fitDescription(def.description),
            canonical,
            keywords: [def.title.toLowerCase(), 'free writing tool', 'creative writing'],
            jsonLd: { '@context': 'https://schema.org', '@type': 'WebApplication', name: def.title, description: def.description, url: canonical, applicationCategory: 'WritingApplication', offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' } },
            body,
          }),
        );
      },
    );

    app.get(
      '/:tool/browse/',
      {
        schema: {
          operationId: 'toolBrowsePage',
          summary: 'Public list of a tool’s content (HTML)',
          tags: ['pages'],
          params: z.object({ tool: z.string() }),
          querystring: z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) }),
          ...htmlAnswers,
          response: { 200: html, 404: html },
        },
      },
      async (req, reply) => {
        if (!isToolRoute(req.params.tool)) return notFound(reply);
        const tool = req.params.tool;
        const def = toolDefinition(tool);
        const page = req.query.page;
        const { items, total } = await deps.browse.browse(tool, { page, limit: 20, sort: 'newest' });
        const canonical = `${base}/${tool}/browse/${page > 1 ? `?page=${page}` : ''}`;
        const nav = [page > 1 ? `<a rel="prev" href="?page=${page - 1}">Newer</a>` : '', page * 20 < total ? `<a rel="next" href="?page=${page + 1}">Older</a>` : ''].filter(Boolean).join(' · ');
        return send(
          reply,
          200,
          renderPage({
            title: `Browse ${def.title} ideas${page > 1 ? ` (page ${page})` : ''} | Family Stories`,
            description: fitDescription(`Public ${def.title.toLowerCase()} results shared by writers. ${def.description}`),
            canonical,
            jsonLd: { '@context': 'https://schema.org', '@type': 'CollectionPage', name: `${def.title} ideas`, url: canonical, numberOfItems: total },
            body: `<h1>${escapeHtml(def.title)}: shared ideas</h1>${itemList(tool, items)}<p>${nav}</p>`,
          }),
        );
      },
    );

    const itemPage = async (tool: string, shareCode: string, reply: FastifyReply, embed: boolean) => {
      if (!isToolRoute(tool)) return notFound(reply, embed);
      let item;
      try {
        item = await deps.browse.view(tool, shareCode, null, embed ? 'embed' : 'page');
      } catch {
        return notFound(reply, embed);
      }
      const def = toolDefinition(tool);
      const canonical = `${base}/${tool}/${item.shareCode}/`;
      const content = item.content;
      const rendered =
        tool === 'flashcards'
          ? renderFlashcards(content)
          : tool === 'flipbook'
            ? renderFlipbook(content, content['source'] === 'pdf' ? `${base}/api/flipbook/${item.shareCode}/pdf` : null)
            : tool === 'book-blurb'
              ? renderBookBlurb(content)
              : renderValue(content);
      // A share page offers its embeddable variant (the embed page itself does not).
      const embedOffer = embed ? '' : renderEmbedOffer(`${base}/embed/${tool}/${item.shareCode}/`, item.title);
      const body = `<h1>${escapeHtml(item.title)}</h1>
<p class="meta">Made with the <a href="${escapeHtml(`${base}/${tool}/`)}"${embed ? ' target="_blank" rel="noopener"' : ''}>${escapeHtml(def.title)}</a> · ${escapeHtml(madeByLine(item.aiMetadata))} · ${item.viewCount} ${item.viewCount === 1 ? 'view' : 'views'}</p>
${rendered}${embedOffer}`;
      return send(
        reply,
        200,
        renderPage({
          title: item.seoMetadata.title || item.title,
          description: item.seoMetadata.description,
          canonical,
          keywords: item.seoMetadata.keywords,
          noindex: !item.isPublic || embed,
          ogType: 'article',
          jsonLd: {
            '@context': 'https://schema.org',
            '@type': 'CreativeWork',
            name: item.title,
            headline: item.seoMetadata.title,
            description: item.seoMetadata.description,
            keywords: item.seoMetadata.keywords.join(', '),
            url: canonical,
            dateCreated: item.createdAt,
            dateModified: item.updatedAt,
            isAccessibleForFree: true,
            creativeWorkStatus: item.isPublic ? 'Published' : 'Unlisted',
            publisher: { '@type': 'Organization', name: 'Family Stories' },
          },
          body,
          embed,
        }),
        embed,
      );
    };

    const itemParams = z.object({ tool: z.string(), shareCode: z.string().max(100) });
    app.get(
      '/:tool/:shareCode/',
      { schema: { operationId: 'toolItemPage', summary: 'Public page of one item (HTML; noindex unless public)', tags: ['pages'], params: itemParams, ...htmlAnswers, response: { 200: html, 404: html } } },
      async (req, reply) => itemPage(req.params.tool, req.params.shareCode, reply, false),
    );
    app.get(
      '/embed/:tool/:shareCode/',
      { schema: { operationId: 'toolItemEmbed', summary: 'Embeddable page of one item, framable by any site (HTML)', tags: ['pages'], params: itemParams, ...htmlAnswers, response: { 200: html, 404: html } } },
      async (req, reply) => itemPage(req.params.tool, req.params.shareCode, reply, true),
    );
  };
