import { ProviderError } from '../provider-error';
import { createBilling } from './index';

describe('offline billing', () => {
  const billing = createBilling({ provider: 'offline' });

  it('records a charge as paid, with references stable per idempotency key', async () => {
    const req = { customerId: 'u1', amountCents: 23988, currency: 'usd', description: 'Gift', idempotencyKey: 'gift:1' };
    const a = await billing.charge(req);
    const b = await billing.charge(req);
    const c = await billing.charge({ ...req, idempotencyKey: 'gift:2' });
    expect(a).toMatchObject({ provider: 'offline', status: 'paid' });
    expect(a.paidAt).toBeInstanceOf(Date);
    expect(a.paymentReference).toMatch(/^offline_pay_[0-9a-f]{24}$/);
    expect(b.paymentReference).toBe(a.paymentReference);
    expect(b.invoiceReference).toBe(a.invoiceReference);
    expect(c.paymentReference).not.toBe(a.paymentReference);
  });

  it('refuses a negative amount and refunds only its own payments', async () => {
    await expect(billing.charge({ customerId: 'u', amountCents: -1, currency: 'usd', description: 'x', idempotencyKey: 'k' })).rejects.toBeInstanceOf(ProviderError);
    const paid = await billing.charge({ customerId: 'u', amountCents: 100, currency: 'usd', description: 'x', idempotencyKey: 'k2' });
    await expect(billing.refund({ paymentReference: paid.paymentReference, amountCents: 100, reason: 'cancelled', idempotencyKey: 'r' })).resolves.toMatchObject({ status: 'refunded' });
    await expect(billing.refund({ paymentReference: 'ch_other', amountCents: 1, reason: 'x', idempotencyKey: 'r2' })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
