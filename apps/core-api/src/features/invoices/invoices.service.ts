// GET /api/invoices and /api/invoices/[id] (spec 000): the billing rows of the caller, written by the
// purchases (gifts) through the billing port. Another account's invoice is 404.
import type { Database } from '@story/db';
import { notFound } from '@story/http';
import { createInvoicesRepository, type InvoiceRow } from './invoices.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const invoiceView = (r: InvoiceRow) => ({
  id: r.id,
  number: r.number,
  status: r.status,
  amount_cents: r.amountCents,
  currency: r.currency,
  description: r.description,
  line_items: r.lineItems,
  period_start: iso(r.periodStart),
  period_end: iso(r.periodEnd),
  pdf_url: r.pdfUrl,
  issued_at: r.issuedAt.toISOString(),
  paid_at: iso(r.paidAt),
  created_at: r.createdAt.toISOString(),
});
export type InvoiceView = ReturnType<typeof invoiceView>;

export function createInvoicesService({ db }: { db: Database }) {
  const repo = createInvoicesRepository(db);
  return {
    async list(userId: string, q: { limit: number; offset: number }): Promise<{ invoices: InvoiceView[] }> {
      return { invoices: (await repo.listOwned(userId, q)).map(invoiceView) };
    },
    async get(userId: string, id: string): Promise<{ invoice: InvoiceView }> {
      const row = await repo.findOwned(id, userId);
      if (!row) throw notFound('Invoice');
      return { invoice: invoiceView(row) };
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
