// Family routes (spec 000 Endpoints: Family): /api/family/* and the extended management under
// /api/families/[familyId]/*, one file per resource with its schemas beside it (supabase/storage
// `routes/object/*.ts`). All authenticated (familyRoutes, registered in the auth scope) except the
// invitation preview (familyPublicRoutes).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FamilyService } from '../family.service';
import type { InvitationsService } from '../invitations.service';
import { groupsRoutes } from './groups.routes';
import { groupInvitationsRoutes, invitationsRoutes } from './invitations.routes';
import { leaderboardRoutes } from './leaderboard.routes';
import { mediaRoutes } from './media.routes';
import { memberDirectoryRoutes, membersRoutes } from './members.routes';
import { memoriesRoutes } from './memories.routes';
import { relationshipsRoutes } from './relationships.routes';

export { familyPublicRoutes } from './public.routes';

export const familyRoutes =
  ({ family, invitations }: { family: FamilyService; invitations: InvitationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    // This order is the order of docs/openapi/core-api.json's paths: keep it, or the document changes.
    await app.register(groupsRoutes({ family }));
    await app.register(invitationsRoutes({ invitations }));
    await app.register(memberDirectoryRoutes({ family }));
    await app.register(leaderboardRoutes({ family }));
    await app.register(membersRoutes({ family }));
    await app.register(groupInvitationsRoutes({ invitations }));
    await app.register(relationshipsRoutes({ family }));
    await app.register(memoriesRoutes({ family }));
    await app.register(mediaRoutes({ family }));
  };
