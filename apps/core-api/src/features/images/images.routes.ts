// /api/images (gallery, one image, its file, delete) and the gallery upload POST /api/upload/{storage_provider}
// (CONTRACTS §9: multipart `file`, at most 5 MB, JPEG/PNG/WebP/HEIC from the bytes; answers the image record).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { AppError, badRequest, coreErrorSchema, errorResponses, multipartBody, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject, type RateLimitHandle } from '@story/http';
import { MULTIPART_BUFFERS, readMultipartFile } from '../multipart-file';
import { IMAGE_MAX_BYTES, type ImagesService } from './images.service';

const tags = ['images'];
const security = [{ bearerAuth: [] }];
const KINDS = ['photo', 'document', 'art'] as const;
const TOO_LARGE = `file is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB, the most a photo can be`;

export const imageView = z.object({
  id: z.uuid(),
  kind: z.enum(KINDS),
  title: z.string().nullable(),
  caption: z.string().nullable(),
  mimeType: z.string(),
  sizeBytes: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  storyId: z.uuid().nullable(),
  userId: z.uuid(),
  takenAt: z.string().nullable(),
  createdAt: z.string(),
});
const idParams = z.object({ imageId: z.uuid() });
const uploadFields = z.object({
  kind: z.enum(KINDS).default('photo'),
  title: z.string().trim().max(200).optional(),
  caption: z.string().trim().max(2000).optional(),
});

export const imagesRoutes =
  ({ images }: { images: ImagesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/user-gallery',
      {
        schema: {
          operationId: 'userGallery',
          summary: "The caller's images, newest first (kind filter, keyset cursor)",
          tags,
          security,
          querystring: z.object({ kind: z.enum(KINDS).optional(), limit: z.coerce.number().int().min(1).max(100).default(50), cursor: z.string().max(200).optional() }),
          response: { 200: z.object({ images: z.array(imageView), nextCursor: z.string().nullable() }), ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => images.gallery(callerOf(req).userId, req.query),
    );

    app.get(
      '/:imageId',
      {
        schema: {
          operationId: 'getImage',
          summary: 'One image record (its owner and family members who may see the owner\u2019s content)',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ image: imageView }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ image: await images.get(callerOf(req).userId, req.params.imageId) }),
    );

    app.get(
      '/:imageId/file',
      {
        schema: {
          operationId: 'getImageFile',
          summary: 'The stored image (variant=thumbnail for the WebP thumbnail), streamed; honours Range',
          tags,
          security,
          params: idParams,
          querystring: z.object({ variant: z.enum(['original', 'thumbnail']).default('original') }),
          ...routeMedia(rangedMedia(['image/*'], 'The image')),
          response: {
            200: z.any().describe('The image bytes'),
            206: z.any().describe('A byte range of the image'),
            ...errorResponses(coreErrorSchema, [400, 401, 404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const { object, contentType } = await images.file(callerOf(req).userId, req.params.imageId, req.query.variant, parseRangeHeader(req.headers.range));
        return sendStoredObject(reply, object, { contentType });
      },
    );

    app.delete(
      '/:imageId',
      {
        schema: {
          operationId: 'deleteImage',
          summary: 'Delete an image and its stored files (owner only)',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await images.remove(callerOf(req).userId, req.params.imageId)) }),
    );
  };

/** POST /api/upload/{storage_provider}: the gallery upload; the path names the configured storage (s3 or local). */
export const imageUploadRoutes =
  ({ images, provider, uploadLimit }: { images: ImagesService; provider: string; uploadLimit: ReturnType<RateLimitHandle['route']> }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, fieldSize: 4096 }, throwFileSizeLimit: true, ...MULTIPART_BUFFERS });
    app.post(
      '/:storage_provider',
      {
        config: { rateLimit: uploadLimit },
        bodyLimit: IMAGE_MAX_BYTES + 256 * 1024,
        schema: {
          operationId: 'uploadImage',
          summary: `Upload an image to the gallery (multipart: file, kind photo|document|art, title, caption); JPEG, PNG, WebP or HEIC judged from the bytes, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB; GPS location removed unless the privacy setting keep_photo_location is on`,
          tags,
          security,
          ...routeMedia({
            requestBody: multipartBody({
              file: { names: ['file'], types: ['image/jpeg', 'image/png', 'image/webp', 'image/heic'], maxBytes: IMAGE_MAX_BYTES, description: 'The image, judged from its bytes' },
              fields: uploadFields,
            }),
          }),
          params: z.object({ storage_provider: z.string().max(20) }),
          response: {
            201: z.object({ image: imageView, locationRemoved: z.boolean() }).extend(imageView.shape),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 413, 415, 429, 502, 503] as const),
          },
        },
        onRequest: async (req) => {
          const length = Number(req.headers['content-length']);
          if (Number.isFinite(length) && length > IMAGE_MAX_BYTES + 256 * 1024) throw new AppError('payload_too_large', TOO_LARGE, { field: 'file' });
        },
      },
      async (req, reply) => {
        if (req.params.storage_provider !== provider) {
          if (provider === 'none') throw new AppError('unavailable', 'Storage is not configured, so images cannot be uploaded', { extra: { status: 'upload_failed' } });
          throw badRequest(`storage_provider must be ${provider}, the storage this service uses`, { field: 'storage_provider' });
        }
        const { file, fields } = await readMultipartFile(req, 'image', TOO_LARGE);
        const parsed = uploadFields.safeParse(fields);
        if (!parsed.success) {
          const field = String(parsed.error.issues[0]?.path[0] ?? 'body');
          throw badRequest(`${field} is invalid: ${parsed.error.issues[0]?.message ?? ''}`, { field });
        }
        if (!file) throw badRequest('file is required: send the image in the multipart field file', { field: 'file' });
        const { image, locationRemoved } = await images.upload(callerOf(req).userId, { ...file, ...parsed.data });
        // The record itself (CONTRACTS §9: "answers the image record with its id"), also under `image`.
        return reply.status(201).send({ ...image, image, locationRemoved });
      },
    );
  };
