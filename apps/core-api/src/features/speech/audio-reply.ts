// Sending synthesized speech: the provider's MP3 stream goes straight to the client (nothing buffers
// the whole file) with the headers spec 000 names; a client that goes away stops the synthesis.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Synthesis } from '@story/providers';

/** Aborts when the client disconnects before the reply finished, so providers stop producing audio. */
export function abortOnDisconnect(req: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  req.raw.once('aborted', () => controller.abort());
  return controller.signal;
}

export function sendSynthesis(reply: FastifyReply, synthesis: Synthesis, options: { realtime: boolean }) {
  reply
    .header('Content-Type', synthesis.contentType)
    .header('X-Provider', synthesis.provider)
    .header('X-Voice-ID', synthesis.voiceId)
    .header('X-Character-Count', String(synthesis.characters))
    .header('X-Estimated-Cost', synthesis.estimatedCostUsd.toFixed(6));
  if (options.realtime) {
    // Real-time playback: chunks as they are made, never stored by a cache or held back by a proxy.
    reply.header('Cache-Control', 'no-store').header('X-Accel-Buffering', 'no');
  } else {
    reply.header('Cache-Control', 'private, no-cache').header('Content-Disposition', 'inline; filename="speech.mp3"');
  }
  return reply.send(synthesis.audio);
}
