// Request and response schemas of CONTRACTS §2.
import { z } from 'zod';
import { isAcceptablePassword, PASSWORD_RULE } from '@story/auth';

export const emailField = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be a valid email address' }))
  .transform((e) => e.toLowerCase());

export const passwordField = z.string().max(256).refine(isAcceptablePassword, { message: PASSWORD_RULE });

export const signupBody = z.object({
  email: emailField,
  password: passwordField,
  fullName: z.string().trim().min(1).max(200).optional(),
});

export const signinBody = z.object({
  email: emailField,
  password: z.string().min(1).max(256),
});

export const refreshBody = z.object({ refresh_token: z.string().min(16).max(512) });

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(['user', 'support', 'admin']),
  /** CONTRACTS §7: unverified accounts may use the product but never hold admin or support. */
  email_verified: z.boolean(),
});

/** Who is asking: the user agent and address a new session records. */
export interface ClientMeta {
  userAgent?: string;
  ip?: string;
}

/** An account as answers and tokens need it. */
export interface AccountView {
  id: string;
  email: string;
  role: 'user' | 'support' | 'admin';
  emailVerified: boolean;
}

export const toUser = (a: AccountView): z.infer<typeof userSchema> => ({ id: a.id, email: a.email, role: a.role, email_verified: a.emailVerified });

/** 32 random bytes in base64url (43 characters), as the verification email carries it. */
export const verifyEmailBody = z.object({
  token: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be the token from the verification link' }),
});

export const verifyEmailResult = z.object({ user: userSchema });

export const resendVerificationResult = z.object({
  success: z.literal(true),
  /** false when the email is already verified (nothing is sent then) or the address cannot receive mail. */
  sent: z.boolean(),
  user: userSchema,
});

export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  refresh_token: z.string(),
});

export const authResult = z.object({ user: userSchema, session: sessionSchema });
export type AuthResult = z.infer<typeof authResult>;

/** CONTRACTS §10: the address to send a sign-in link to. */
export const magicLinkBody = z.object({ email: emailField });

/** 32 random bytes in base64url (43 characters), as the sign-in link carries it. */
export const magicLinkVerifyBody = z.object({
  token: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be the token from the sign-in link' }),
});
