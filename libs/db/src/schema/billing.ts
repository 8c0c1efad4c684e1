// Invoices the user can list and open (GET /api/invoices, spec 000). Rows mirror the payment
// processor's invoices; the processor stays the source of truth for money.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceLineItem {
  description: string;
  quantity: number;
  unitAmountCents: number;
  amountCents: number;
}

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Human-readable invoice number shown on the document. */
    number: text('number').notNull(),
    /** The processor's invoice id, so a replayed payment event updates rather than duplicates. */
    providerInvoiceId: text('provider_invoice_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').$type<InvoiceStatus>().notNull().default('open'),
    description: text('description'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    lineItems: jsonb('line_items').$type<InvoiceLineItem[]>().notNull().default([]),
    /** The processor-hosted PDF, when it offers one. */
    pdfUrl: text('pdf_url'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_provider_invoice_id_key').on(t.providerInvoiceId),
    index('invoices_user_id_issued_idx').on(t.userId, t.issuedAt.desc().nullsFirst()),
    check('invoices_status_check', oneOf('status', INVOICE_STATUSES)),
    check('invoices_amount_check', sql`amount_cents >= 0`),
    check('invoices_period_check', sql`period_start IS NULL OR period_end IS NULL OR period_end >= period_start`),
  ],
);
