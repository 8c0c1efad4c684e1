// The offline billing adapter: no payment processor is configured, so a charge is recorded as paid at
// once and a refund as refunded. References are derived from the idempotency key, so the same request
// yields the same references, as a processor's idempotent API would. Nothing leaves the machine. In
// production without BILLING_OFFLINE_ACKNOWLEDGED it takes no charge and confirms no payment.
import { createHash } from 'node:crypto';
import { ProviderError } from '../provider-error';
import type { Billing } from './billing.port';

const refFrom = (prefix: string, key: string) => `${prefix}_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;

export function createOfflineBilling(options: { refusal?: string } = {}): Billing {
  const { refusal } = options;
  return {
    provider: 'offline',
    async charge(request) {
      if (refusal) throw new ProviderError('unavailable', 'offline', refusal);
      if (!Number.isInteger(request.amountCents) || request.amountCents < 0) {
        throw new ProviderError('rejected_input', 'offline', 'The amount must be a whole number of cents, not negative');
      }
      return {
        provider: 'offline',
        paymentReference: refFrom('offline_pay', request.idempotencyKey),
        invoiceReference: refFrom('offline_in', request.idempotencyKey),
        status: 'paid',
        paidAt: new Date(),
      };
    },
    async refund(request) {
      if (!request.paymentReference.startsWith('offline_pay_')) {
        throw new ProviderError('not_found', 'offline', 'No offline payment has that reference');
      }
      return { provider: 'offline', refundReference: refFrom('offline_re', request.idempotencyKey), status: 'refunded' };
    },
    async paymentStatus(paymentReference) {
      // Every offline charge was recorded as paid, so one of ours is paid (unless offline payments are refused).
      if (refusal) return 'unknown';
      return /^offline_pay_[0-9a-f]{24}$/.test(paymentReference) ? 'paid' : 'unknown';
    },
  };
}
