// Feature flags (spec 001 "Admin resources", CONTRACTS §7): list, and create-or-update a whole flag by key.
// The write, its audit row (before and after) and the cache NOTIFY commit together; every process's
// libs/flags cache drops its rules when the notification arrives, well within a second.
import type { FlagAbConfig } from '@story/db';
import { AppError } from '@story/http';
import type { AuditLog } from '../audit-log.repository';
import type { AuditMeta } from '../request-meta';
import type { FeatureFlagsRepository, FlagRecord } from './feature-flags.repository';

export interface FlagView {
  key: string;
  description: string | null;
  enabled: boolean;
  rolloutPercentage: number;
  overrides: { userId: string; enabled: boolean; reason: string | null }[];
  variants?: { name: string; weight: number }[];
  updatedAt: string;
}

export interface FlagInput {
  key: string;
  description?: string | null;
  enabled: boolean;
  rolloutPercentage: number;
  overrides: { userId: string; enabled: boolean; reason?: string | null }[];
  variants?: { name: string; weight: number }[] | null;
}

export function toFlagView(r: FlagRecord): FlagView {
  const variants = r.abConfig?.variants?.map(({ name, weight }) => ({ name, weight }));
  return {
    key: r.key,
    description: r.description,
    enabled: r.enabled,
    rolloutPercentage: r.rolloutPercentage,
    overrides: r.overrides,
    ...(variants && variants.length > 0 ? { variants } : {}),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The audit row keeps what a reader compares, without timestamps that always differ. */
const auditShape = (v: FlagView | null) => (v ? { ...v, updatedAt: undefined } : null);

export function createFeatureFlagsService({ flags, audit, onChanged }: { flags: FeatureFlagsRepository; audit: AuditLog; onChanged: () => void }) {
  return {
    async list(): Promise<FlagView[]> {
      return (await flags.list()).map(toFlagView);
    },

    async save(actorId: string, input: FlagInput, meta: AuditMeta): Promise<{ flag: FlagView; created: boolean }> {
      const ids = input.overrides.map((o) => o.userId);
      const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
      if (duplicate) {
        throw new AppError('validation', `User ${duplicate} has more than one override`, { field: 'overrides', details: { invalid_fields: { overrides: `duplicate userId ${duplicate}` } } });
      }
      const names = (input.variants ?? []).map((v) => v.name);
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice) throw new AppError('validation', `Variant ${twice} is listed twice`, { field: 'variants', details: { invalid_fields: { variants: `duplicate name ${twice}` } } });
      if (input.variants && input.variants.length > 0 && input.variants.every((v) => v.weight === 0)) {
        throw new AppError('validation', 'At least one variant needs a weight above 0', { field: 'variants', details: { invalid_fields: { variants: 'all weights are 0' } } });
      }
      const result = await flags.transaction(async (tx) => {
        const known = await flags.existingUsers(ids, tx);
        const unknown = ids.findIndex((id) => !known.has(id));
        if (unknown >= 0) {
          const field = `overrides.${unknown}.userId`;
          throw new AppError('validation', `User ${ids[unknown]} does not exist`, { field, details: { invalid_fields: { [field]: `no user ${ids[unknown]}` }, user_id: ids[unknown] } });
        }
        const before = await flags.findForUpdate(input.key, tx);
        const abConfig: FlagAbConfig | null = input.variants && input.variants.length > 0 ? { ...(before?.abConfig ?? {}), variants: input.variants } : null;
        const saved = await flags.save(
          {
            key: input.key,
            description: input.description ?? null,
            enabled: input.enabled,
            rolloutPercentage: input.rolloutPercentage,
            abConfig,
            overrides: input.overrides.map((o) => ({ userId: o.userId, enabled: o.enabled, reason: o.reason ?? null })),
          },
          actorId,
          tx,
        );
        const after = toFlagView(saved);
        await audit.record(
          {
            actorId,
            action: before ? 'feature_flag.update' : 'feature_flag.create',
            targetType: 'feature_flag',
            targetId: input.key,
            ipPrefix: meta.ipPrefix,
            requestId: meta.requestId,
            before: auditShape(before ? toFlagView(before) : null),
            after: auditShape(after),
          },
          tx,
        );
        await flags.notifyFlagsChanged(tx);
        return { flag: after, created: !before };
      });
      // This process need not wait for its own notification.
      onChanged();
      return result;
    },
  };
}

export type FeatureFlagsService = ReturnType<typeof createFeatureFlagsService>;
