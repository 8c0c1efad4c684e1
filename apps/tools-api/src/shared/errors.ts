// The error codes of spec 002 (client side and server side) as AppError factories. toolsErrorRenderer
// (libs/http) puts code, message, field and details into the envelope; extra.meta lands in meta. The 429
// RATE_LIMIT_EXCEEDED comes from the limiter (counterRefusal in libs/http/src/limits).
import { AppError } from '@story/http';

export const TOOLS_ERROR_CODES = [
  'MISSING_SESSION_ID',
  'SESSION_EXPIRED',
  'INVALID_INPUT',
  'INVALID_FORMAT',
  'RATE_LIMIT_EXCEEDED',
  'CONTENT_NOT_FOUND',
  'TOOL_NOT_FOUND',
  'ACCESS_DENIED',
  'PARENT_NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL_ERROR',
  'AI_SERVICE_ERROR',
  'DATABASE_ERROR',
  'EXPORT_FAILED',
  'SAVE_FAILED',
] as const;
export type ToolsErrorCode = (typeof TOOLS_ERROR_CODES)[number];

export const toolsError = {
  missingSessionId: () => new AppError('validation', 'X-Session-ID header is required', { code: 'MISSING_SESSION_ID', field: 'X-Session-ID' }),
  sessionExpired: () => new AppError('unauthorized', 'This session has expired; start a new session', { code: 'SESSION_EXPIRED', field: 'X-Session-ID' }),
  invalidInput: (field: string, message: string, details?: unknown) => new AppError('validation', message, { code: 'INVALID_INPUT', field, details }),
  invalidFormat: (format: string, allowed: readonly string[]) =>
    new AppError('validation', `Unsupported export format "${format}"`, { code: 'INVALID_FORMAT', field: 'format', details: { allowed } }),
  notFound: (what = 'Content') => new AppError('not_found', `${what} not found`, { code: 'CONTENT_NOT_FOUND' }),
  toolNotFound: (tool: string) => new AppError('not_found', `Unknown tool "${tool}"`, { code: 'TOOL_NOT_FOUND', field: 'tool' }),
  accessDenied: (message = 'Access denied') => new AppError('forbidden', message, { code: 'ACCESS_DENIED' }),
  parentNotFound: () => new AppError('not_found', 'The content this belongs to no longer exists', { code: 'PARENT_NOT_FOUND' }),
  payloadTooLarge: (message: string, field = 'file') => new AppError('payload_too_large', message, { code: 'PAYLOAD_TOO_LARGE', field }),
  unsupportedMedia: (message: string, field = 'file') => new AppError('unsupported_media_type', message, { code: 'UNSUPPORTED_MEDIA_TYPE', field }),
  aiService: (message = 'The AI service could not generate this content') => new AppError('bad_gateway', message, { code: 'AI_SERVICE_ERROR' }),
  exportFailed: (cause?: unknown) => new AppError('internal', 'The export could not be produced', { code: 'EXPORT_FAILED', cause }),
  saveFailed: (cause?: unknown) => new AppError('internal', 'The content could not be saved', { code: 'SAVE_FAILED', cause }),
  databaseError: (cause?: unknown) => new AppError('internal', 'A database error occurred', { code: 'DATABASE_ERROR', cause }),
};
