import { createPublicKey, verify, type KeyObject } from 'node:crypto';

// DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it.
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

/** How old (or how far ahead) a request's timestamp may be, in seconds: older ones are replays. */
export const MAX_SKEW_SECONDS = 300;

/** Reads an application's public key (64 hex digits, as the Discord developer portal shows it). */
export function discordPublicKey(hex: string): KeyObject {
  const h = hex.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new Error('the Discord public key must be 64 hex digits (CRKB_DISCORD_PUBLIC_KEY)');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, Buffer.from(h, 'hex')]), format: 'der', type: 'spki' });
}

/**
 * Checks a request's Ed25519 signature (X-Signature-Ed25519 over X-Signature-Timestamp + body) and
 * that its timestamp is recent; returns what is wrong, or null when it is genuine.
 */
export function verifyDiscordRequest(
  key: KeyObject,
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
  nowSeconds = Date.now() / 1000,
): string | null {
  if (!signature || !timestamp) return 'missing signature headers';
  if (!/^[0-9a-fA-F]{128}$/.test(signature)) return 'malformed signature';
  if (!/^\d{1,12}$/.test(timestamp)) return 'malformed timestamp';
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_SKEW_SECONDS) return 'stale timestamp';
  const ok = verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex'));
  return ok ? null : 'invalid signature';
}
