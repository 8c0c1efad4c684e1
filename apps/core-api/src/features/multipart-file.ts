// One multipart upload read for the routes that take a single small file in the field `file` plus text
// fields (images, imports): the file is buffered (its route's bodyLimit and @fastify/multipart's fileSize
// cap it), any other file part is drained and ignored, and the multipart size error becomes a 413 naming
// `file` in the core shape.
import type { FastifyRequest } from 'fastify';
import { AppError, assertStorableFields } from '@story/http';

/**
 * Buffers of @fastify/multipart's parser and of each file part, for every multipart route's register: socket
 * reads are 64 KiB, and with busboy's 16 KiB defaults every chunk paused the parser and the request until
 * the file part was read (a pause/resume round per chunk). 1 MiB each lets chunks flow.
 */
export const MULTIPART_BUFFERS = { highWaterMark: 1024 * 1024, fileHwm: 1024 * 1024 } as const;

export interface MultipartFile {
  bytes: Buffer;
  fileName: string;
}

/**
 * Read the request's `file` part and its text fields (checked by assertStorableFields). `what` names the
 * upload in the 415 answer and is the fallback file name; `tooLarge` is the 413 message.
 */
export async function readMultipartFile(req: FastifyRequest, what: string, tooLarge: string): Promise<{ file: MultipartFile | undefined; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', `Send the ${what} as multipart/form-data with a file field`);
  let file: MultipartFile | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        file = { bytes: await part.toBuffer(), fileName: part.filename || what };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', tooLarge, { field: 'file' });
    throw err;
  }
  assertStorableFields(fields);
  return { file, fields };
}
