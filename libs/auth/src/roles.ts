// The one rule for an account's role (CONTRACTS §1 bootstrap admins, §7): admin (support) only while
// the email is listed in ADMIN_EMAILS (SUPPORT_EMAILS) AND verified. Sign-up, sign-in, refresh and email
// verification call roleForAccount; core-api's start calls syncAccountRoles, so an address taken off a
// list loses the role then. The role is written to accounts.role, which every service's session check
// reads, and into each new access token's `role` claim.
import type postgres from 'postgres';

export type AccountRoleName = 'user' | 'support' | 'admin';

export interface RoleLists {
  /** Lower-cased emails (libs/config lower-cases both lists). */
  adminEmails: readonly string[];
  supportEmails: readonly string[];
}

export function roleForAccount(account: { email: string; emailVerified: boolean; grantedRole?: string | null }, lists: RoleLists): AccountRoleName {
  // An unverified address proves nothing: whoever signs up first with a listed email must not get the role.
  if (!account.emailVerified) return 'user';
  const email = account.email.toLowerCase();
  if (lists.adminEmails.includes(email)) return 'admin';
  if (lists.supportEmails.includes(email)) return 'support';
  // A role an admin granted through the admin API (accounts.granted_role) holds like a listed one.
  if (account.grantedRole === 'admin' || account.grantedRole === 'support') return account.grantedRole;
  return 'user';
}

/**
 * Bring every account's stored role in line with the lists (at start). Only accounts that hold a role
 * or are listed can change, so this reads a handful of rows. Returns how many changed.
 */
export async function syncAccountRoles(sql: postgres.Sql, lists: RoleLists): Promise<number> {
  const listed = [...lists.adminEmails, ...lists.supportEmails];
  const rows = await sql<{ id: string; email: string; verified: boolean; role: string; granted_role: string | null }[]>`
    select id, email, email_confirmed_at is not null as verified, role, granted_role
    from accounts
    where role <> 'user' or granted_role is not null or lower(email) = any(${listed}::text[])`;
  let changed = 0;
  for (const row of rows) {
    const role = roleForAccount({ email: row.email, emailVerified: row.verified, grantedRole: row.granted_role }, lists);
    if (role === row.role) continue;
    await sql`update accounts set role = ${role}, updated_at = now() where id = ${row.id}`;
    changed++;
  }
  return changed;
}
