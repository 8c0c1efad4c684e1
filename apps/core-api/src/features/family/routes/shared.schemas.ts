// Schemas and route options every family route file uses.
import { z } from 'zod';
import { coreErrorSchema, errorResponses } from '@story/http';
import { RELATIONSHIP_TYPES } from '../family.constants';

export const security = [{ bearerAuth: [] }];
export const tags = ['family'];

export const relationship = z.enum(RELATIONSHIP_TYPES);
/** The token from an invite URL: 32 random bytes, base64url. */
export const token = z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/, 'must be the token from the invitation link');

export const familyParams = z.object({ familyId: z.uuid() });

/** The error responses a route declares, in core-api's error shape. */
export const e = <const C extends readonly number[]>(codes: C) => errorResponses(coreErrorSchema, codes);
