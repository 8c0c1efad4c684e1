// Shapes of the recordings API (spec 000 "Recording"): stored columns out in the spec's snake_case names.
import { z } from 'zod';
import { badRequest } from '@story/http';
import type { RecordingRow } from './recordings.service';

export const recordingView = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  transcript: z.string().nullable(),
  ai_summary: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  audio_url: z.string().nullable(),
  mime_type: z.string().nullable(),
  waveform_data: z.array(z.number()).nullable(),
  tags: z.array(z.string()),
  status: z.string(),
  media_type: z.string(),
  original_file_size_bytes: z.number().nullable(),
  transcript_status: z.string().nullable(),
  transcript_source: z.string().nullable(),
  transcript_error: z.string().nullable(),
  /** The model that made the server transcript, when the provider names it (local: moonshine-base or moonshine-tiny). */
  transcript_model: z.string().nullable(),
  transcript_updated_at: z.string().nullable(),
  story_id: z.uuid().nullable(),
  campaign_id: z.uuid().nullable(),
  trial_session_id: z.string().nullable(),
  created_at: z.string(),
});
export type RecordingView = z.infer<typeof recordingView>;

/**
 * Zone-less timestamps hold UTC (spec 000 Memories 2), and the shared client hands them over as text
 * ("2026-11-21 19:44:30.17"), which Date would read as local time: mark them UTC before parsing.
 */
const iso = (d: Date | string | null) => {
  if (d === null) return null;
  if (d instanceof Date) return d.toISOString();
  return new Date(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(d) ? d : `${d.replace(' ', 'T')}Z`).toISOString();
};

export function toRecordingView(r: RecordingRow): RecordingView {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    transcript: r.transcript,
    ai_summary: r.aiSummary,
    duration_seconds: r.durationSeconds,
    audio_url: r.audioUrl,
    mime_type: r.mimeType,
    waveform_data: r.waveformData,
    tags: r.tags,
    status: r.status,
    media_type: r.mediaType,
    original_file_size_bytes: r.originalFileSizeBytes,
    transcript_status: r.transcriptStatus,
    transcript_source: r.transcriptSource,
    transcript_error: r.transcriptError,
    transcript_model: r.transcriptModel,
    transcript_updated_at: iso(r.transcriptUpdatedAt),
    story_id: r.storyId,
    campaign_id: r.campaignId,
    trial_session_id: r.trialSessionId,
    created_at: iso(r.createdAt)!,
  };
}

/** Multipart text fields of POST /api/recordings (all optional; numbers arrive as strings). */
export const uploadFields = z.object({
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
  campaignId: z.uuid().optional(),
  transcript: z.string().max(200_000).optional(),
  duration: z.coerce.number().finite().min(0).max(24 * 3600).optional(),
  trial_session_id: z.string().trim().min(1).max(200).optional(),
  tags: z
    .string()
    .max(2000)
    .optional()
    .transform((v) => (v ? [...new Set(v.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean))] : undefined))
    .pipe(z.array(z.string().max(40)).max(20).optional()),
});

/** Validate a plain object with a zod schema; the first issue becomes a 400 naming its field. */
export function parseFields<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  throw badRequest(`Invalid ${field}: ${issue.message}`, { field });
}

export const listQuery = z.object({
  campaignId: z.uuid().optional(),
  search: z.string().trim().max(200).optional(),
  tags: z.string().max(1000).optional().describe('comma-separated; recordings with any of them'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const idParams = z.object({ id: z.uuid() });
