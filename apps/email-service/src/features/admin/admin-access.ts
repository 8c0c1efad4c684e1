// Who may use the admin API (spec 001 "Admin resources", CONTRACTS §7): admin and support may read, only
// admin may change. Both hooks run in onRequest so a 403 comes before body validation. Every admin route
// registers under the read scope; every changing route adds `requireAdminWrite` to its own onRequest.
// An impersonation token (one with an `act` claim) is refused on every admin route, whatever its role.
import type { FastifyRequest } from 'fastify';
import { requireRole } from '@story/auth';
import { AppError } from '@story/http';

export const INSUFFICIENT_PERMISSIONS = 'INSUFFICIENT_PERMISSIONS';

const readRoles = requireRole(['admin', 'support'], 'Admin or support access required', INSUFFICIENT_PERMISSIONS);
const writeRoles = requireRole(['admin'], 'Admin access required', INSUFFICIENT_PERMISSIONS);

function refuseImpersonation(request: FastifyRequest): void {
  if (request.auth?.actorId) {
    throw new AppError('forbidden', 'Admin routes cannot be used while impersonating a user', { code: INSUFFICIENT_PERMISSIONS });
  }
}

/** onRequest hook: role admin or support (reads of the admin API), never an impersonation token. */
export async function requireAdminRead(request: FastifyRequest): Promise<void> {
  refuseImpersonation(request);
  await readRoles(request);
}

/** onRequest hook: role admin (every change: flags, providers, billing, content, migrations). */
export async function requireAdminWrite(request: FastifyRequest): Promise<void> {
  refuseImpersonation(request);
  await writeRoles(request);
}
