// Family routes (spec 000 Endpoints: Family): /api/family/* and the extended management under
// /api/families/[familyId]/*, one file per resource with its schemas beside it (supabase/storage
// `routes/object/*.ts`). All authenticated (familyRoutes, registered in the auth scope) except the
// invitation preview (familyPublicRoutes).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FamilyService } from '../family.service';
import type { InvitationsService } from '../invitations.service';
import { groupsRoutes } from './groups.routes';
import { invitationsRoutes } from './invitations.routes';
import { mediaRoutes } from './media.routes';
import { membersRoutes } from './members.routes';
import { memoriesRoutes } from './memories.routes';
import { relationshipsRoutes } from './relationships.routes';

export { familyPublicRoutes } from './public.routes';

export const familyRoutes =
  ({ family, invitations }: { family: FamilyService; invitations: InvitationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(groupsRoutes({ family }));
    await app.register(invitationsRoutes({ invitations }));
    await app.register(membersRoutes({ family }));
    await app.register(relationshipsRoutes({ family }));
    await app.register(memoriesRoutes({ family }));
    await app.register(mediaRoutes({ family }));
  };
