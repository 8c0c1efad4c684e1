// /api/recordings (authenticated scope). The multipart upload takes at most 8 MB: larger bodies are
// refused with 413 before they are read, pointing the client at direct upload.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { AppError, assertStorableFields, badRequest, coreErrorSchema, errorResponses, multipartBody, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject, type RateLimitHandle } from '@story/http';
import { idParams, listQuery, parseFields, recordingView, toRecordingView, uploadFields } from './recordings.schemas';
import { MULTIPART_BUFFERS } from '../multipart-file';
import { MULTIPART_MAX_BYTES, MULTIPART_TOO_LARGE, type RecordingsService, type StoredUpload } from './recordings.service';

const TOO_LARGE = MULTIPART_TOO_LARGE;
/** Multipart framing around the file (boundaries, part headers, text fields) on top of the 8 MB file. */
const FRAMING_ALLOWANCE = 512 * 1024;

const security = [{ bearerAuth: [] }];
const tags = ['recordings'];

export const recordingsRoutes =
  ({ recordings, uploadLimit }: { recordings: RecordingsService; uploadLimit: ReturnType<RateLimitHandle['route']> }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, {
      limits: { fileSize: MULTIPART_MAX_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024 },
      throwFileSizeLimit: true,
      ...MULTIPART_BUFFERS,
    });

    app.post(
      '/',
      {
        config: { rateLimit: uploadLimit },
        bodyLimit: MULTIPART_MAX_BYTES + FRAMING_ALLOWANCE + 1024 * 1024,
        schema: {
          operationId: 'uploadRecording',
          summary: 'Upload a recording (multipart: audio plus title, description, campaignId, transcript, duration, trial_session_id)',
          description: TOO_LARGE,
          tags,
          security,
          ...routeMedia({
            requestBody: multipartBody({
              file: { names: ['audio', 'file'], types: ['audio/*', 'video/*'], maxBytes: MULTIPART_MAX_BYTES, description: 'The recording, judged from its bytes' },
              fields: uploadFields,
            }),
          }),
          response: {
            201: z.object({ recording: recordingView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 415, 429, 502, 503] as const),
          },
        },
        // Refuse an obviously oversized body from its Content-Length, before a byte of it is read.
        onRequest: async (req) => {
          const length = Number(req.headers['content-length']);
          if (Number.isFinite(length) && length > MULTIPART_MAX_BYTES + FRAMING_ALLOWANCE) throw new AppError('payload_too_large', TOO_LARGE);
        },
      },
      async (req, reply) => {
        if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Send the recording as multipart/form-data with an audio field');
        const userId = callerOf(req).userId;
        const fields: Record<string, string> = {};
        let upload: StoredUpload | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              // The file streams into storage as it arrives; text fields may come before or after it.
              if ((part.fieldname !== 'audio' && part.fieldname !== 'file') || upload) {
                part.file.resume();
                continue;
              }
              upload = await recordings.storeUpload(userId, part.file, part.mimetype);
            } else if (typeof part.value === 'string') {
              fields[part.fieldname] = part.value;
            }
          }
        } catch (err) {
          await recordings.discard(upload);
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', TOO_LARGE);
          throw err;
        }
        let parsed: ReturnType<typeof uploadFields.parse>;
        try {
          assertStorableFields(fields);
          parsed = parseFields(uploadFields, fields);
          if (!upload) throw badRequest('The audio file is required', { field: 'audio' });
        } catch (err) {
          await recordings.discard(upload);
          throw err;
        }
        const row = await recordings.finishUpload(userId, upload, {
          title: parsed.title,
          description: parsed.description,
          campaignId: parsed.campaignId,
          transcript: parsed.transcript,
          duration: parsed.duration,
          trialSessionId: parsed.trial_session_id,
          tags: parsed.tags,
        });
        return reply.status(201).send({ recording: toRecordingView(row) });
      },
    );

    app.get(
      '/',
      {
        schema: {
          operationId: 'listRecordings',
          summary: "The caller's recordings, newest first",
          tags,
          security,
          querystring: listQuery,
          response: { 200: z.object({ recordings: z.array(recordingView) }), ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => {
        const q = req.query;
        const tagList = q.tags ? q.tags.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean) : undefined;
        const rows = await recordings.list(callerOf(req).userId, { campaignId: q.campaignId, search: q.search || undefined, tags: tagList, limit: q.limit });
        return { recordings: rows.map(toRecordingView) };
      },
    );

    app.delete(
      '/',
      {
        schema: {
          operationId: 'deleteRecording',
          summary: 'Delete a recording and its stored media',
          tags,
          security,
          querystring: z.object({ id: z.uuid() }),
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await recordings.remove(callerOf(req).userId, req.query.id)) }),
    );

    app.get(
      '/stats',
      {
        schema: {
          operationId: 'recordingStats',
          summary: "Statistics of the caller's recordings",
          tags,
          security,
          response: { 200: z.object({ stats: z.record(z.string(), z.union([z.number(), z.string()])) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => recordings.stats(callerOf(req).userId),
    );

    app.get(
      '/tags',
      {
        schema: {
          operationId: 'recordingTags',
          summary: "Unique tags of the caller's recordings",
          tags,
          security,
          response: { 200: z.object({ tags: z.array(z.string()) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => recordings.tags(callerOf(req).userId),
    );

    app.get(
      '/:id',
      {
        schema: {
          operationId: 'getRecording',
          summary: 'One recording',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ recording: recordingView }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ recording: toRecordingView(await recordings.get(callerOf(req).userId, req.params.id)) }),
    );

    app.put(
      '/:id/tags',
      {
        schema: {
          operationId: 'setRecordingTags',
          summary: "Replace a recording's tags",
          tags,
          security,
          params: idParams,
          body: z.object({ tags: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(20) }),
          response: { 200: z.object({ recording: recordingView }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ recording: toRecordingView(await recordings.setTags(callerOf(req).userId, req.params.id, [...new Set(req.body.tags)])) }),
    );

    app.get(
      '/:id/audio',
      {
        schema: {
          operationId: 'streamRecordingAudio',
          summary: 'The stored media, streamed; honours Range (206, Content-Range; 416 for a bad range)',
          tags,
          security,
          params: idParams,
          ...routeMedia(rangedMedia(['audio/*', 'video/*'], 'The stored media')),
          response: {
            200: z.any().describe('The stored media, whole'),
            206: z.any().describe('The requested byte range of the stored media'),
            ...errorResponses(coreErrorSchema, [400, 401, 404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const range = parseRangeHeader(req.headers.range);
        const { row, object } = await recordings.media(callerOf(req).userId, req.params.id, range);
        return sendStoredObject(reply, object, { contentType: row.mimeType ?? undefined });
      },
    );

    app.get(
      '/:id/waveform',
      {
        schema: {
          operationId: 'recordingWaveform',
          summary: 'Peak amplitudes (0..1) computed on upload, and the duration in seconds',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ waveform: z.array(z.number()), duration: z.number() }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => recordings.waveform(callerOf(req).userId, req.params.id),
    );

    app.post(
      '/:id/transcribe',
      {
        schema: {
          operationId: 'transcribeRecording',
          summary: 'Queue server transcription (again): the transcript lands when the job finishes; poll the recording',
          tags,
          security,
          params: idParams,
          response: {
            202: z.object({ queued: z.boolean(), alreadyQueued: z.boolean(), recording: recordingView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const result = await recordings.queueTranscription(callerOf(req).userId, req.params.id);
        return reply.status(202).send({ ...result, recording: toRecordingView(result.recording) });
      },
    );
  };
