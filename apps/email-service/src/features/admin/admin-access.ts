// Who may use the admin API (spec 001 "Admin resources", CONTRACTS §7): admin and support may read, only
// admin may change. Both hooks run in onRequest so a 403 comes before body validation. Every admin route
// registers under the read scope; every changing route adds `requireAdminWrite` to its own onRequest.
// An impersonation token is refused by libs/auth `requireRole` itself, the one check all three services use.
import { requireRole } from '@story/auth';

export const INSUFFICIENT_PERMISSIONS = 'INSUFFICIENT_PERMISSIONS';

/** onRequest hook: role admin or support (reads of the admin API), never an impersonation token. */
export const requireAdminRead = requireRole(['admin', 'support'], 'Admin or support access required', INSUFFICIENT_PERMISSIONS);

/** onRequest hook: role admin (every change: flags, providers, billing, content, migrations). */
export const requireAdminWrite = requireRole(['admin'], 'Admin access required', INSUFFICIENT_PERMISSIONS);
