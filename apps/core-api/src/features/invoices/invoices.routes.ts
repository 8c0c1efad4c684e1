// /api/invoices (spec 000 misc): the caller's invoices and one of them (authenticated scope).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { INVOICE_STATUSES } from '@story/db';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { InvoicesService } from './invoices.service';

const security = [{ bearerAuth: [] }];
const tags = ['invoices'];

const invoiceSchema = z.object({
  id: z.uuid(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  amount_cents: z.number().int(),
  currency: z.string(),
  description: z.string().nullable(),
  line_items: z.array(z.object({ description: z.string(), quantity: z.number(), unitAmountCents: z.number(), amountCents: z.number() })),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  pdf_url: z.string().nullable(),
  issued_at: z.string(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
});

export const invoicesRoutes =
  ({ invoices }: { invoices: InvoicesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/invoices',
      {
        schema: {
          operationId: 'listInvoices',
          summary: "The caller's invoices, newest first",
          tags,
          security,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), offset: z.coerce.number().int().min(0).default(0) }),
          response: { 200: z.object({ invoices: z.array(invoiceSchema) }), ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => invoices.list(callerOf(req).userId, req.query),
    );

    app.get(
      '/api/invoices/:id',
      {
        schema: {
          operationId: 'getInvoice',
          summary: "One of the caller's invoices (anyone else's is 404)",
          tags,
          security,
          params: z.object({ id: z.uuid() }),
          response: { 200: z.object({ invoice: invoiceSchema }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => invoices.get(callerOf(req).userId, req.params.id),
    );
  };
