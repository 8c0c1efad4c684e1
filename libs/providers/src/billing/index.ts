// Billing (spec 000 Gifts, CONTRACTS §9): a port, the offline recorder as the default, chosen by
// BILLING_PROVIDER. A card processor's adapter joins the switch below; callers never change.
import type { Billing } from './billing.port';
import { createOfflineBilling } from './offline.adapter';

export type { Billing, ChargeRequest, ChargeResult, PaymentStatus, RefundRequest, RefundResult } from './billing.port';
export { createOfflineBilling } from './offline.adapter';

export type BillingConfig = {
  provider: 'offline';
  /** NODE_ENV=production: the offline recorder then takes no payment unless the operator acknowledged it (CONTRACTS §9). */
  production?: boolean;
  /** BILLING_OFFLINE_ACKNOWLEDGED=true. */
  offlineAcknowledged?: boolean;
};

/** The one line a production start without a payment processor gives (CONTRACTS §9). */
export const OFFLINE_BILLING_REFUSAL =
  'BILLING_OFFLINE_ACKNOWLEDGED: BILLING_PROVIDER=offline records every charge as paid without taking money; with NODE_ENV=production set BILLING_OFFLINE_ACKNOWLEDGED=true only if that is meant';

export function createBilling(config: BillingConfig): Billing {
  switch (config.provider) {
    case 'offline':
      // Config loading already stops core-api in this case; the adapter refuses too, so no other path can
      // build a production service that hands out paid gifts for nothing.
      return createOfflineBilling(config.production && !config.offlineAcknowledged ? { refusal: OFFLINE_BILLING_REFUSAL } : {});
    default: {
      const unknown: never = config.provider;
      throw new Error(`Unknown BILLING_PROVIDER: ${String(unknown)}`);
    }
  }
}
