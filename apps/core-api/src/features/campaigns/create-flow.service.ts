// The multi-step campaign create flow, with its state kept server-side (campaign_create_flows) so another
// device resumes where the first stopped. start creates the campaign at once (it counts against the
// campaigns allowance from then on: the slot is taken while the flow is open) and one flow row; each step
// writes what it validated; complete closes the flow. A caller has at most one open flow: start again
// resumes it rather than piling up drafts. Only the creator ever sees a flow (anyone else: 404).
import type { Database, DbOrTx } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { z } from 'zod';
import { requireCreator } from '../access/access.policy';
import { createGroupInTx } from '../family/family.service';
import type { InvitationsService } from '../family/invitations.service';
import { recordEvent } from '../timeline/timeline.service';
import { assertAllowance, lockTier } from '../tiers/tier-allowances';
import { createCampaignsRepository } from './campaigns.repository';
import { assertCampaignAllowance, type CampaignsService, type CampaignView } from './campaigns.service';
import { createCreateFlowRepository, type FlowRow } from './create-flow.repository';
import { FLOW_STEPS, STEP_SCHEMAS, familyMembersStep, giftAddress, type FamilyMembersStep, type GiftAddress } from './create-flow.schemas';

export interface FlowMember {
  email: string;
  name: string | null;
  role: string;
  relationship: string | null;
  invitationId: string | null;
  /** invited (sent now), already_invited (a pending invitation existed), already_member. */
  outcome: 'invited' | 'already_invited' | 'already_member';
}

export interface FlowState {
  campaignId: string;
  status: string;
  currentStep: number;
  steps: Record<string, unknown>;
  familyGroupId: string | null;
  familyMembers: FlowMember[];
  giftAddress: Record<string, unknown> | null;
  campaign: {
    id: string;
    title: string;
    description: string | null;
    storytellerName: string;
    storytellerEmail: string | null;
    storytellerPhone: string | null;
    relationship: string;
    status: string;
  };
  completedAt: string | null;
  updatedAt: string;
}

/** Parse with a step's schema; the first problem becomes a 400 naming the field. */
function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'body';
  throw badRequest(`Invalid ${field}: ${issue?.message ?? 'not valid'}`, { field });
}

export function createCreateFlowService({ db, invitations, campaigns: campaignsService }: { db: Database; invitations: Pick<InvitationsService, 'createInTx'>; campaigns: Pick<CampaignsService, 'get'> }) {
  const repo = createCreateFlowRepository(db);
  const campaignRows = createCampaignsRepository(db);

  async function load(tx: DbOrTx, callerId: string, campaignId: string, lock = false): Promise<FlowRow> {
    const row = await repo.findByCampaign(campaignId, { lock }, tx);
    if (!row) throw notFound('Campaign create flow');
    requireCreator(callerId, row.userId, 'Campaign create flow');
    return row;
  }

  async function loadOpen(tx: DbOrTx, callerId: string, campaignId: string): Promise<FlowRow> {
    const row = await load(tx, callerId, campaignId, true);
    if (row.status !== 'in_progress') throw conflict('This campaign was already set up; the create flow is closed', { code: 'flow_completed' });
    return row;
  }

  async function state(tx: DbOrTx, flow: FlowRow): Promise<FlowState> {
    const c = await campaignRows.findById(flow.campaignId, tx);
    const steps = flow.steps ?? {};
    return {
      campaignId: flow.campaignId,
      status: flow.status,
      currentStep: flow.currentStep,
      steps,
      familyGroupId: typeof steps['familyGroupId'] === 'string' ? (steps['familyGroupId'] as string) : null,
      familyMembers: (flow.familyMembers ?? []) as FlowMember[],
      giftAddress: flow.giftAddress ?? null,
      campaign: {
        id: c.id,
        title: c.title,
        description: c.description,
        storytellerName: c.storytellerName,
        storytellerEmail: c.storytellerEmail,
        storytellerPhone: c.storytellerPhone,
        relationship: c.relationship,
        status: c.status,
      },
      completedAt: flow.completedAt?.toISOString() ?? null,
      updatedAt: flow.updatedAt.toISOString(),
    };
  }

  const advance = (flow: FlowRow, step: number) => Math.max(flow.currentStep, step + 1);

  /** The owner's group for this campaign: the one the flow made before, else their oldest owned group, else a new one. */
  async function ownersGroup(tx: DbOrTx, callerId: string, flow: FlowRow, storytellerName: string): Promise<string> {
    const remembered = flow.steps?.['familyGroupId'];
    if (typeof remembered === 'string') {
      const g = await repo.ownedGroupById(callerId, remembered, tx);
      if (g) return g;
    }
    const oldest = await repo.oldestOwnedGroup(callerId, tx);
    if (oldest) return oldest;
    return createGroupInTx(tx, callerId, { name: `${storytellerName}'s family`, description: 'Created while setting up a campaign' });
  }

  return {
    async start(callerId: string, input: { title?: string; description?: string }): Promise<{ flow: FlowState; resumed: boolean }> {
      return repo.transaction(async (tx) => {
        // The allowance check locks the caller's profile row first, so the open-flow lookup below is race-free too.
        await lockTier(tx, callerId);
        const open = await repo.findOpen(callerId, tx);
        if (open) return { flow: await state(tx, open), resumed: true };
        await assertCampaignAllowance(campaignRows, tx, callerId);
        const title = input.title ?? 'New campaign';
        // The storyteller is named in step 1; until then the title stands in (storyteller_name is required).
        const campaign = await campaignRows.insert({ userId: callerId, title, description: input.description ?? null, storytellerName: title, relationship: 'other' }, tx);
        const flow = await repo.insert(campaign.id, callerId, tx);
        return { flow: await state(tx, flow), resumed: false };
      });
    },

    async resume(callerId: string, campaignId: string): Promise<FlowState> {
      return state(db, await load(db, callerId, campaignId));
    },

    async step(callerId: string, campaignId: string, stepNumber: string, body: unknown): Promise<FlowState> {
      const step = Number(stepNumber);
      if (!(FLOW_STEPS as readonly number[]).includes(step)) {
        throw badRequest(`Invalid stepNumber: must be ${FLOW_STEPS.join(', ')} (family members and the gift address have their own routes)`, { field: 'stepNumber' });
      }
      return repo.transaction(async (tx) => {
        const flow = await loadOpen(tx, callerId, campaignId);
        let saved: Record<string, unknown>;
        if (step === 1) {
          const v = parse(STEP_SCHEMAS[1], body);
          await campaignRows.update(
            campaignId,
            { storytellerName: v.storytellerName, storytellerEmail: v.storytellerEmail ?? null, storytellerPhone: v.storytellerPhone ?? null, relationship: v.relationship },
            tx,
          );
          saved = v;
        } else if (step === 2) {
          const v = parse(STEP_SCHEMAS[2], body);
          await campaignRows.update(campaignId, { title: v.title, description: v.description ?? null }, tx);
          saved = v;
        } else {
          const v = parse(STEP_SCHEMAS[3], body);
          // The step replaces the campaign's prompt list, so the whole list is what counts.
          assertAllowance(await lockTier(tx, callerId), 'promptsPerCampaign', 0, v.prompts.length);
          saved = v;
        }
        const updated = await repo.update(campaignId, { steps: { ...flow.steps, [String(step)]: saved }, currentStep: advance(flow, step) }, tx);
        return state(tx, updated);
      });
    },

    /**
     * Invite the listed relatives to the owner's family group through the invitation service (same
     * allowance, rate limit and email), all in one transaction: one refused invitation writes nothing.
     * Sending the step again does not re-email: addresses already invited or already members are kept as
     * they are, and pending invitations this flow sent to addresses no longer listed are cancelled.
     */
    async familyMembers(callerId: string, campaignId: string, body: unknown): Promise<FlowState> {
      const input: FamilyMembersStep = parse(familyMembersStep, body);
      const emails = input.members.map((m) => m.email.trim().toLowerCase());
      const dup = emails.findIndex((e, i) => emails.indexOf(e) !== i);
      if (dup >= 0) throw badRequest(`Invalid members.${dup}.email: listed twice`, { field: `members.${dup}.email` });
      return repo.transaction(async (tx) => {
        const flow = await loadOpen(tx, callerId, campaignId);
        const campaign = await campaignRows.findById(campaignId, tx);
        const groupId = await ownersGroup(tx, callerId, flow, campaign.storytellerName);

        const outcomes: FlowMember[] = [];
        for (const m of input.members) {
          const email = m.email.trim().toLowerCase();
          const base = { email, name: m.name ?? null, role: m.role, relationship: m.relationship ?? null };
          if (await repo.isActiveMemberEmail(groupId, email, tx)) {
            outcomes.push({ ...base, invitationId: null, outcome: 'already_member' });
            continue;
          }
          const pending = await repo.pendingInvitation(groupId, email, tx);
          if (pending) {
            outcomes.push({ ...base, invitationId: pending, outcome: 'already_invited' });
            continue;
          }
          const { invitation } = await invitations.createInTx(tx, callerId, { familyGroupId: groupId, email, role: m.role, relationship: m.relationship ?? null, message: null });
          outcomes.push({ ...base, invitationId: invitation.id, outcome: 'invited' });
        }

        const kept = new Set(emails);
        const dropped = ((flow.familyMembers ?? []) as FlowMember[]).filter((m) => m.outcome === 'invited' && m.invitationId && !kept.has(m.email));
        for (const { invitationId } of dropped) {
          if (!invitationId) continue;
          await repo.cancelPendingInvitation(invitationId, tx);
        }

        const updated = await repo.update(campaignId, { familyMembers: outcomes, steps: { ...flow.steps, familyGroupId: groupId, familyMembers: true }, currentStep: advance(flow, 4) }, tx);
        return state(tx, updated);
      });
    },

    async giftAddress(callerId: string, campaignId: string, body: unknown): Promise<FlowState> {
      const address: GiftAddress = parse(giftAddress, body);
      return repo.transaction(async (tx) => {
        const flow = await loadOpen(tx, callerId, campaignId);
        const updated = await repo.update(campaignId, { giftAddress: address, currentStep: advance(flow, 5) }, tx);
        return state(tx, updated);
      });
    },

    /** Close the flow. The storyteller (step 1) is the one thing a campaign cannot do without. */
    async complete(callerId: string, campaignId: string): Promise<{ campaign: CampaignView; flow: FlowState }> {
      const flow = await repo.transaction(async (tx) => {
        const open = await loadOpen(tx, callerId, campaignId);
        if (!open.steps?.['1']) throw badRequest('Invalid step 1: the storyteller step must be completed first', { field: 'step1', details: 'PUT .../step/1 with storytellerName and relationship' });
        const done = await repo.update(campaignId, { status: 'completed', completed: true }, tx);
        await campaignRows.update(campaignId, { status: 'active' }, tx);
        const groupId = typeof done.steps?.['familyGroupId'] === 'string' ? (done.steps['familyGroupId'] as string) : null;
        const c = await campaignRows.findById(campaignId, tx);
        await recordEvent(tx, { familyGroupId: groupId, actorId: callerId, eventType: 'campaign_created', subjectType: 'campaign', subjectId: campaignId, title: c.title });
        return state(tx, done);
      });
      return { campaign: await campaignsService.get(callerId, campaignId), flow };
    },
  };
}

export type CreateFlowService = ReturnType<typeof createCreateFlowService>;
