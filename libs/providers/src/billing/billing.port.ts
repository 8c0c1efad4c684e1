// The billing seam: services ask for a charge or a refund and get back the processor's references; which
// processor answers (the offline recorder here, a card processor later) is the adapter's business.
// Money is in minor units (cents) and every call carries an idempotency key, so a retried request never
// charges twice: a real processor's adapter passes the key through, the offline one derives its ids from it.

export interface ChargeRequest {
  /** Our account that pays. */
  customerId: string;
  amountCents: number;
  /** ISO 4217, lower-case (usd). */
  currency: string;
  /** One line for the receipt, e.g. "Gift: family plan, 12 months". */
  description: string;
  /** The same key always names the same charge (e.g. `gift:<gift id>`). */
  idempotencyKey: string;
}

export interface ChargeResult {
  provider: string;
  /** The processor's id of the payment (gifts.payment_reference). */
  paymentReference: string;
  /** The processor's id of the invoice document (invoices.provider_invoice_id). */
  invoiceReference: string;
  status: 'paid' | 'open';
  paidAt: Date | null;
}

export interface RefundRequest {
  paymentReference: string;
  amountCents: number;
  reason: string;
  idempotencyKey: string;
}

export interface RefundResult {
  provider: string;
  refundReference: string;
  status: 'refunded' | 'pending';
}

/** What the processor says became of a payment; only 'paid' is money received. */
export type PaymentStatus = 'paid' | 'open' | 'refunded' | 'failed' | 'unknown';

export interface Billing {
  /** Which adapter serves billing, for /health. */
  readonly provider: string;
  /** Take a payment; failures are ProviderError values (rejected_input for a declined card). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Give a payment's money back (a cancelled gift). */
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Ask the processor for a payment's state now (a gift upgrades its redeemer only when this says 'paid'):
   * a reference it does not know is 'unknown', never an error.
   */
  paymentStatus(paymentReference: string): Promise<PaymentStatus>;
}
