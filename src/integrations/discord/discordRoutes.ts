import express, { Router, type Request, type Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { sendError } from '../../query/sendError.js';
import { answerInteraction, type Interaction } from './answerInteraction.js';
import { MAX_SKEW_SECONDS, discordPublicKey, verifyDiscordRequest } from './verifyDiscordRequest.js';

/** Options of the Discord interactions endpoint. */
export interface DiscordRouteOptions {
  kb: () => KnowledgeBase;
  /** The application's public key, 64 hex digits. */
  publicKey: string;
  /** Base of the web pages answers link to; never taken from request headers. */
  publicUrl: () => string;
}

/** POST /interactions: Discord's HTTP interactions endpoint (signature checked, then answered). */
export function discordRoutes(opts: DiscordRouteOptions): Router {
  const key = discordPublicKey(opts.publicKey);
  // signatures seen while their timestamp is still fresh: the same request sent again is a replay
  const seen = new LRUCache<string, true>({ max: 50_000, ttl: 2 * MAX_SKEW_SECONDS * 1000 });
  const router = Router();
  router.post('/interactions', express.raw({ type: () => true, limit: '64kb' }), (req: Request, res: Response) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.get('X-Signature-Ed25519');
    let problem = verifyDiscordRequest(key, signature, req.get('X-Signature-Timestamp'), body);
    if (!problem && seen.has(signature!.toLowerCase())) problem = 'replayed request';
    if (problem) {
      sendError(res, { status: 401, code: 'UNAUTHORIZED', message: problem });
      return;
    }
    seen.set(signature!.toLowerCase(), true);
    let interaction: Interaction;
    try {
      interaction = JSON.parse(body.toString('utf8')) as Interaction;
    } catch {
      sendError(res, { status: 400, code: 'BAD_USER_INPUT', message: 'malformed JSON body' });
      return;
    }
    if (typeof interaction !== 'object' || interaction === null || typeof interaction.type !== 'number') {
      sendError(res, { status: 400, code: 'BAD_USER_INPUT', message: 'an interaction needs a numeric "type"' });
      return;
    }
    res.set('Cache-Control', 'no-store').json(answerInteraction(opts.kb(), interaction, opts.publicUrl()));
  });
  return router;
}
