// A/B tests (spec 001 "A/B test"): creating one copies the base template into a variant and starts the
// test in one transaction, with admin_audit_log rows for both; listing closes tests past their end date and computes
// results from the queue.
import { AppError } from '@story/http';
import { isUniqueViolation, type AbSuccessMetric, type AbTestStatus } from '@story/db';
import type { AuditLog } from '../admin/audit-log.repository';
import type { TemplatesRepository } from '../templates/templates.repository';
import { templateAuditShape, templateNotFound, toTemplateView, type TemplateActor, type TemplateView } from '../templates/templates.service';
import type { AbTestRow, AbTestsRepository } from './ab-tests.repository';
import { abTestResults, type ArmCounts } from './ab-tests.stats';

export interface CreateAbTestInput {
  base_template_id: string;
  variant_name: string;
  variant_display_name?: string | null;
  variant_subject: string;
  variant_html: string;
  variant_text?: string | null;
  test_percentage: number;
  test_duration_days: number;
  success_metric: AbSuccessMetric;
}

export interface ListAbTestsInput {
  status?: AbTestStatus;
  limit: number;
  offset: number;
}

const summary = (row: AbTestRow) => ({
  id: row.id,
  name: row.name,
  base_template_id: row.baseTemplateId,
  variant_template_id: row.variantTemplateId,
  test_percentage: row.testPercentage,
  success_metric: row.successMetric,
  status: row.status,
  start_date: row.startDate.toISOString(),
  end_date: row.endDate ? row.endDate.toISOString() : null,
});

const DAY_MS = 86_400_000;

export function createAbTestsService({ abTests, templates, audit }: { abTests: AbTestsRepository; templates: TemplatesRepository; audit: AuditLog }) {
  return {
    async create(input: CreateAbTestInput, actor: TemplateActor): Promise<{ ab_test: ReturnType<typeof summary>; base_template: TemplateView; variant_template: TemplateView }> {
      try {
        return await abTests.transaction(async (tx) => {
          // The row lock serialises concurrent creations on one base, so the running-test check holds.
          const base = await templates.lockById(input.base_template_id, tx);
          if (!base) throw templateNotFound(input.base_template_id);
          const running = await abTests.findRunningForBase(base.id, tx);
          if (running) {
            throw new AppError('conflict', 'A running A/B test already exists for this template', { code: 'AB_TEST_RUNNING', details: { template_id: base.id, ab_test_id: running.id } });
          }
          const variantDisplayName = input.variant_display_name?.trim() || input.variant_name;
          const variant = await templates.insert(
            {
              name: input.variant_name,
              displayName: variantDisplayName,
              description: base.description,
              category: base.category,
              subjectTemplate: input.variant_subject,
              htmlTemplate: input.variant_html,
              textTemplate: input.variant_text ?? null,
              availableVariables: base.availableVariables,
              defaultVariables: base.defaultVariables,
              requiredVariables: base.requiredVariables,
              // No trigger events: the variant is reached through the test's split, never triggered directly.
              triggerEvents: [],
              sendDelayHours: base.sendDelayHours,
              maxSendsPerUser: base.maxSendsPerUser,
              isActive: true,
              isSystem: false,
            },
            actor.actorId,
            tx,
          );
          await templates.insertVersion(variant, actor.actorId, `A/B variant of ${base.name}`, tx);
          const start = new Date();
          const test = await abTests.insert(
            {
              // Spec 001: the base template's display name and the variant's name (not its display name).
              name: `${base.displayName ?? base.name} vs ${input.variant_name}`,
              baseTemplateId: base.id,
              variantTemplateId: variant.id,
              testPercentage: input.test_percentage,
              testDurationDays: input.test_duration_days,
              successMetric: input.success_metric,
              status: 'running',
              startDate: start,
              endDate: new Date(start.getTime() + input.test_duration_days * DAY_MS),
              createdBy: actor.actorId,
            },
            tx,
          );
          const meta = { actorId: actor.actorId, requestId: actor.requestId, ipPrefix: actor.ipPrefix };
          await audit.record({ ...meta, action: 'email_template.create', targetType: 'email_template', targetId: variant.id, after: templateAuditShape(variant) }, tx);
          await audit.record({ ...meta, action: 'email_ab_test.create', targetType: 'email_ab_test', targetId: test.id, after: summary(test) }, tx);
          return { ab_test: summary(test), base_template: toTemplateView(base), variant_template: toTemplateView(variant) };
        });
      } catch (err) {
        if (isUniqueViolation(err, 'email_templates_name_key')) {
          throw new AppError('conflict', `A template named ${input.variant_name} already exists`, { code: 'CONFLICT', details: { field: 'variant_name', name: input.variant_name } });
        }
        throw err;
      }
    },

    async list(input: ListAbTestsInput) {
      // Tests past their end date are closed lazily, on read; no scheduler needed for this one transition.
      await abTests.completeExpired();
      const { rows, total } = await abTests.list(input);
      const arms = await abTests.armCounts(rows.map((r) => r.test.id));
      const empty: ArmCounts = { sent: 0, opened: 0, clicked: 0 };
      const armOf = (id: string, variant: 'base' | 'variant'): ArmCounts => {
        const a = arms.find((x) => x.abTestId === id && x.variant === variant);
        return a ? { sent: Number(a.sent), opened: Number(a.opened), clicked: Number(a.clicked) } : empty;
      };

      return {
        ab_tests: rows.map(({ test, base, variant }) => ({
          ...summary(test),
          test_duration_days: test.testDurationDays,
          created_at: test.createdAt.toISOString(),
          base_template: base,
          variant_template: variant,
          results: abTestResults(armOf(test.id, 'base'), armOf(test.id, 'variant'), test.successMetric),
        })),
        total,
      };
    },
  };
}

export type AbTestsService = ReturnType<typeof createAbTestsService>;
