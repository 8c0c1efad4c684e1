// /api/gifts (spec 000 Gifts): purchase, redeem, list, get, cancel, retry, errors, and the admin pair
// (role admin, else 403). Authenticated scope; the service holds every decision.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, refuseImpersonation, requireRole } from '@story/auth';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { adminGiftSchema, adminListQuery, dismissBody, giftErrorSchema, giftIdBody, giftSchema, idQuery, purchaseBody, redeemBody } from './gifts.schemas';
import type { GiftsService } from './gifts.service';

const security = [{ bearerAuth: [] }];
const tags = ['gifts'];
const adminOnly = requireRole(['admin']);

export const giftsRoutes =
  ({ gifts, rateLimit }: { gifts: GiftsService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/gifts/purchase',
      {
        // Money moves: never on an impersonation token (CONTRACTS §7).
        onRequest: refuseImpersonation('Buying a gift'),
        config: { rateLimit: rateLimit.route('core.gifts.purchase') },
        schema: {
          operationId: 'purchaseGift',
          summary: 'Buy a gift subscription: paid through the billing provider, its redemption code emailed to the recipient',
          tags,
          security,
          body: purchaseBody,
          response: { 201: z.object({ success: z.literal(true), gift: giftSchema, invoiceId: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 422, 429, 503] as const) },
        },
      },
      async (req, reply) => reply.code(201).send({ success: true as const, ...(await gifts.purchase(callerOf(req).userId, req.body)) }),
    );

    app.post(
      '/api/gifts/redeem',
      {
        onRequest: refuseImpersonation('Redeeming a gift'),
        config: { rateLimit: rateLimit.route('core.gifts.redeem') },
        schema: {
          operationId: 'redeemGift',
          summary: "Redeem a gift code once, within its validity: upgrades the caller's plan for the gift's term",
          tags,
          security,
          body: redeemBody,
          response: {
            200: z.object({ success: z.literal(true), gift: giftSchema, subscription: z.object({ tier: z.string(), status: z.literal('active'), term_ends_at: z.string() }) }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 410, 429] as const),
          },
        },
      },
      async (req) => gifts.redeem(callerOf(req).userId, req.body.code),
    );

    app.get(
      '/api/gifts/list',
      {
        schema: {
          operationId: 'listGifts',
          summary: 'Gifts the caller bought, newest first (cancelled ones left out)',
          tags,
          security,
          response: { 200: z.object({ gifts: z.array(giftSchema) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => gifts.list(callerOf(req).userId),
    );

    app.get(
      '/api/gifts/errors',
      {
        schema: {
          operationId: 'listGiftDeliveryErrors',
          summary: "The caller's gifts whose email failed and that were not dismissed",
          tags,
          security,
          response: { 200: z.object({ errors: z.array(giftErrorSchema) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => gifts.errors(callerOf(req).userId),
    );

    app.post(
      '/api/gifts/errors/dismiss',
      {
        schema: {
          operationId: 'dismissGiftDeliveryErrors',
          summary: 'Dismiss the failed-delivery notice of one gift ({giftId}) or of all (no body)',
          tags,
          security,
          body: dismissBody,
          response: { 200: z.object({ success: z.literal(true), dismissed: z.number().int() }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => gifts.dismissErrors(callerOf(req).userId, req.body?.giftId),
    );

    app.post(
      '/api/gifts/retry',
      {
        config: { rateLimit: rateLimit.route('core.gifts.retry') },
        schema: {
          operationId: 'retryGiftDelivery',
          summary: 'Email a gift whose delivery failed again, with a new code (the old one stops working)',
          tags,
          security,
          body: giftIdBody,
          response: { 200: z.object({ success: z.literal(true), gift: giftSchema }), ...errorResponses(coreErrorSchema, [400, 401, 404, 409, 429] as const) },
        },
      },
      async (req) => gifts.retry(callerOf(req).userId, req.body.giftId),
    );

    app.delete(
      '/api/gifts/delete',
      {
        onRequest: refuseImpersonation('Cancelling a gift'),
        schema: {
          operationId: 'cancelGift',
          summary: 'Cancel a pending gift (?id=<gift id>): refunded, invoice voided, code disabled',
          tags,
          security,
          querystring: idQuery,
          response: {
            200: z.object({ success: z.literal(true), id: z.uuid(), status: z.literal('cancelled') }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 429, 503] as const),
          },
        },
      },
      async (req) => gifts.cancel(callerOf(req).userId, req.query.id),
    );

    app.get(
      '/api/gifts/admin/list',
      {
        // onRequest (after the scope's auth hook): a non-admin gets 403 before any validation of the query.
        onRequest: adminOnly,
        schema: {
          operationId: 'adminListGifts',
          summary: 'Every gift, newest first (admin)',
          tags,
          security,
          querystring: adminListQuery,
          response: {
            200: z.object({ gifts: z.array(adminGiftSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 429] as const),
          },
        },
      },
      async (req) => gifts.adminList(req.query),
    );

    app.delete(
      '/api/gifts/admin/delete',
      {
        // onRequest (after the scope's auth hook): a non-admin gets 403 before any validation of the query.
        onRequest: adminOnly,
        schema: {
          operationId: 'adminDeleteGift',
          summary: 'Remove a gift record for good (?id=<gift id>, admin); no money moves',
          tags,
          security,
          querystring: idQuery,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => gifts.adminDelete(req.query.id),
    );

    app.get(
      '/api/gifts/:id',
      {
        schema: {
          operationId: 'getGift',
          summary: "One of the caller's gifts (anyone else's is 404)",
          tags,
          security,
          params: z.object({ id: z.uuid() }),
          response: { 200: z.object({ gift: giftSchema }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => gifts.get(callerOf(req).userId, req.params.id),
    );
  };
