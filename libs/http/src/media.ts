// Serving stored media over HTTP with Range (RFC 9110 §14): one parser and one reply helper shared by the
// recording, memories and export downloads, so every media route answers 206/416 the same way and streams
// straight from storage without buffering.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors';

export type RequestedRange = { start: number; end?: number } | { suffix: number };

/**
 * The single byte range of a Range header, or undefined when there is none (or it asks for several ranges,
 * which we answer with the whole object as RFC 9110 allows). A malformed bytes range is a 416.
 */
export function parseRangeHeader(header: string | undefined): RequestedRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) {
    if (/^bytes=.+,/.test(header.trim())) return undefined;
    throw new AppError('range_not_satisfiable', 'The Range header is not a valid byte range');
  }
  const [, from, to] = match;
  if (from === '' && to === '') throw new AppError('range_not_satisfiable', 'The Range header is not a valid byte range');
  if (from === '') return { suffix: Number(to) };
  const start = Number(from);
  const end = to === '' ? undefined : Number(to);
  if (end !== undefined && end < start) throw new AppError('range_not_satisfiable', 'The Range header is not a valid byte range');
  return { start, end };
}

export interface StreamableObject {
  body: Readable;
  size: number;
  contentLength: number;
  range?: { start: number; end: number };
  contentType?: string;
  etag?: string;
}

// RFC 9110 §8.3.1: type "/" subtype, each a token, then optional "; name=value" parameters. Anything else
// (a stored value holding a line break, say) would make Node refuse the header and the read answer 500.
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"[\t !#-[\]-~]*"))*$/;

/** True for a well-formed media type (RFC 9110 §8.3.1), safe to send as Content-Type. */
export function isMediaType(value: string): boolean {
  return value.length <= 255 && MEDIA_TYPE.test(value);
}

/** The stored type when it is a well-formed media type, else application/octet-stream (never a 500). */
export function servableContentType(value: string | null | undefined): string {
  return value && isMediaType(value) ? value : 'application/octet-stream';
}

/** Send a stored object (or its range) as the reply body: 206 with Content-Range for a range, 200 otherwise. */
export function sendStoredObject(reply: FastifyReply, object: StreamableObject, options: { contentType?: string; filename?: string; cacheControl?: string } = {}) {
  reply.header('Accept-Ranges', 'bytes');
  reply.header('Content-Type', servableContentType(options.contentType ?? object.contentType));
  reply.header('Content-Length', String(object.contentLength));
  reply.header('Cache-Control', options.cacheControl ?? 'private, max-age=0, must-revalidate');
  if (object.etag) reply.header('ETag', object.etag.startsWith('"') ? object.etag : `"${object.etag}"`);
  if (options.filename) reply.header('Content-Disposition', `attachment; filename="${options.filename.replace(/["\\\r\n]/g, '_')}"`);
  // Nothing is a download unless the route says so (a family member may play in place what they may not
  // download, spec 000 "Who may see and download"): a route that set no disposition answers inline.
  else if (!reply.hasHeader('Content-Disposition')) reply.header('Content-Disposition', 'inline');
  if (object.range) {
    reply.status(206);
    reply.header('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
  }
  return reply.send(object.body);
}
