// Billing (issue 13): a port, the offline recorder as the default, chosen by BILLING_PROVIDER. A card
// processor's adapter joins the switch below; callers never change.
import type { Billing } from './billing.port';
import { createOfflineBilling } from './offline.adapter';

export type { Billing, ChargeRequest, ChargeResult, RefundRequest, RefundResult } from './billing.port';
export { createOfflineBilling } from './offline.adapter';

export type BillingConfig = { provider: 'offline' };

export function createBilling(config: BillingConfig): Billing {
  switch (config.provider) {
    case 'offline':
      return createOfflineBilling();
    default: {
      const unknown: never = config.provider;
      throw new Error(`Unknown BILLING_PROVIDER: ${String(unknown)}`);
    }
  }
}
