// Reading one audio file and its text fields from a multipart request (POST /api/transcribe and
// POST /api/conversations/upload-audio), and checking from the bytes that it is audio or video.
// The multipart plugin's own limits (registered in this area's scope) cap the file at 8 MB.
import type { FastifyRequest } from 'fastify';
import { fromBuffer } from 'file-type';
import { AppError, assertStorableFields, badRequest } from '@story/http';

/** Spec 000 Limits: the multipart route takes files at or below 8 MB; larger go direct. */
export const MULTIPART_FILE_LIMIT_BYTES = 8 * 1024 * 1024;

/** One audio file and a few short text fields; anything larger is refused while it streams in. */
export const MULTIPART_LIMITS = { fileSize: MULTIPART_FILE_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 };

export interface UploadedAudio {
  buffer: Buffer;
  /** The media type to hand on: the declared one when the bytes agree with it, else the detected one. */
  mimeType: string;
  /** Detected from the bytes, e.g. audio/mpeg, video/webm. */
  detectedType: string;
  extension: string;
  filename?: string;
}

export interface MultipartAudio {
  file?: { buffer: Buffer; declaredType: string; filename?: string };
  fields: Record<string, string>;
}

/** Drain the request's parts: the file part named `fileField` and every text field (first value wins). */
export async function readMultipartAudio(req: FastifyRequest, fileField = 'audio'): Promise<MultipartAudio> {
  if (!req.isMultipart()) throw badRequest(`Send multipart/form-data with the file in the "${fileField}" field`, { field: fileField });
  const fields: Record<string, string> = {};
  let file: MultipartAudio['file'];
  try {
    // Limits given per call too, so they hold whichever scope registered the multipart plugin.
    for await (const part of req.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField || file) {
          // Drain what we do not want so the request finishes.
          part.file.resume();
          continue;
        }
        file = { buffer: await part.toBuffer(), declaredType: part.mimetype, filename: part.filename || undefined };
      } else if (!(part.fieldname in fields)) {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', 'The file is larger than 8 MB; upload larger files directly to storage (POST /api/uploads/presign)', { field: fileField });
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Too many parts in the multipart body', { field: fileField });
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION') {
      throw badRequest('Malformed multipart body', { field: fileField });
    }
    throw err;
  }
  assertStorableFields(fields);
  return { file, fields };
}

/** The file as audio or video, judged from its bytes (a 400 naming the field otherwise). */
export async function requireAudio(file: MultipartAudio['file'], field = 'audio'): Promise<UploadedAudio> {
  if (!file) throw badRequest(`${field} is required: send the recording as a file in the "${field}" field`, { field });
  if (file.buffer.length === 0) throw badRequest(`${field} is empty`, { field });
  const detected = await fromBuffer(file.buffer);
  if (!detected || !/^(audio|video)\//.test(detected.mime)) {
    throw badRequest(`${field} is not audio or video (its bytes are ${detected ? detected.mime : 'of no known media type'})`, { field });
  }
  const declared = file.declaredType.trim().toLowerCase();
  const declaredBase = (declared.split(';')[0] ?? '').trim();
  // Keep the client's type when it names the same container the bytes show: video/webm bytes
  // declared as audio/webm are audio-only WebM, which recognisers want to know. Anything else, or
  // a type with unusual characters, gives way to what the bytes say.
  const agrees = /^(audio|video)\/[a-z0-9.+-]+$/.test(declaredBase) && (declaredBase.split('/')[1] ?? '').includes(detected.ext);
  return {
    buffer: file.buffer,
    mimeType: agrees ? declaredBase : detected.mime,
    detectedType: detected.mime,
    extension: detected.ext,
    filename: file.filename,
  };
}
