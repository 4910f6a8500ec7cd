import { createHash, createHmac } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';

/** A configured webhook: a Discord channel webhook (`{"content": …}`) or a generic JSON one. */
export interface Webhook {
  kind: 'discord' | 'json';
  url: string;
}

/** What a webhook is told of a new edition. */
interface EditionNews {
  /** The new newest CR edition (effective date). */
  edition: string;
  /** The newest edition before it, when known. */
  previous: string | null;
  /** sha256 of the database that holds it, when known (a replica's artifact). */
  sha256: string | null;
  /** Who saw it: `crkb serve` (a replica following an artifact) or `crkb update`. */
  source: 'serve' | 'update';
}

/** Options of editionWebhooks(). */
export interface WebhookOptions {
  hooks: Webhook[];
  /** HMAC-SHA256 key of the X-Crkb-Signature header (required for a JSON webhook). */
  secret: string | null;
  /** Where the editions each webhook was told of are kept (at most once per edition, across restarts). */
  stateFile: string;
  log(line: string): void;
  /** Attempts per delivery (default 6) and the first retry delay, doubling (default 2000 ms, at most 5 min). */
  attempts?: number;
  retryMs?: number;
}

/** Parses CRKB_WEBHOOKS: URLs separated by spaces or commas, each optionally `discord=` or `json=`; bare URLs of discord.com are Discord. */
export function parseWebhooks(spec: string, secret: string | null): Webhook[] {
  const hooks: Webhook[] = [];
  for (const item of spec.split(/[\s,]+/).filter(Boolean)) {
    const m = /^(?:(discord|json)=)?(.*)$/.exec(item)!;
    let url: URL;
    try {
      url = new URL(m[2]!);
    } catch {
      throw new Error(`CRKB_WEBHOOKS: "${item.slice(0, 80)}" is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`CRKB_WEBHOOKS: ${url.protocol} is not http(s): "${item.slice(0, 80)}"`);
    const kind = (m[1] as Webhook['kind'] | undefined) ?? (/^(?:\w+\.)?discord(?:app)?\.com$/.test(url.hostname) ? 'discord' : 'json');
    if (kind === 'json' && !secret) throw new Error(`CRKB_WEBHOOKS: a JSON webhook (${url.host}) is signed: set CRKB_WEBHOOK_SECRET`);
    hooks.push({ kind, url: url.href });
  }
  return hooks;
}

/** The state file: per webhook (keyed by its URL's sha256: a Discord URL holds its token), the newest edition claimed. */
const EntrySchema = z.object({
  edition: z.string(),
  at: z.string(),
  outcome: z.enum(['baseline', 'sending', 'delivered', 'failed']),
  detail: z.string().optional(),
});
const StateSchema = z.record(z.string().regex(/^[0-9a-f]{32}$/), EntrySchema);
type State = Map<string, z.infer<typeof EntrySchema>>;

const keyOf = (h: Webhook): string => createHash('sha256').update(h.url).digest('hex').slice(0, 32);

function readState(file: string): State {
  if (!existsSync(file)) return new Map();
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file}: not JSON (a crkb webhook state file)`);
  }
  const r = StateSchema.safeParse(json);
  if (!r.success) throw new Error(`${file}: not a crkb webhook state file (${r.error.issues[0]!.message})`);
  return new Map(Object.entries(r.data));
}

function writeState(file: string, state: State): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(Object.fromEntries(state), null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** The body a webhook is sent. */
function bodyFor(h: Webhook, n: EditionNews): string {
  if (h.kind === 'discord') {
    const was = n.previous ? ` (was ${n.previous})` : '';
    return JSON.stringify({ content: `New Comprehensive Rules edition: CR ${n.edition}${was}.`, allowed_mentions: { parse: [] } });
  }
  return JSON.stringify({
    event: 'crkb.edition',
    edition: n.edition,
    previous: n.previous,
    sha256: n.sha256,
    source: n.source,
    sentAt: new Date().toISOString(),
  });
}

/** What editionWebhooks returns. */
export interface EditionWebhooks {
  seen(n: EditionNews, how: { news: boolean }): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/**
 * Tells webhooks of a new CR edition: each is POSTed once per edition (claimed in the state file
 * before the first attempt, so never twice, even across restarts), signed (`X-Crkb-Signature:
 * sha256=HMAC-SHA256(secret, "<X-Crkb-Timestamp>.<body>")`), retried with doubling delays on a
 * network error, 429 (Retry-After honoured) or 5xx. `seen(edition, {news})` is called with the newest
 * edition held: the first one a webhook sees is only recorded unless `news` (an edition just
 * ingested or downloaded); afterwards only a newer one is delivered.
 */
export function editionWebhooks(opts: WebhookOptions): EditionWebhooks {
  const attempts = opts.attempts ?? 6;
  const retryMs = opts.retryMs ?? 2000;
  let chain = Promise.resolve();

  const deliver = async (h: Webhook, n: EditionNews): Promise<string | null> => {
    const body = bodyFor(h, n);
    let why = '';
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(Math.min(retryMs * 2 ** (i - 1), 300_000));
      const ts = String(Math.floor(Date.now() / 1000));
      const headers = new Headers({
        'content-type': 'application/json',
        'user-agent': 'crkb-webhooks',
        'x-crkb-event': 'edition',
        'x-crkb-delivery': `edition-${n.edition}`,
        'x-crkb-timestamp': ts,
      });
      if (opts.secret) headers.set('x-crkb-signature', `sha256=${createHmac('sha256', opts.secret).update(`${ts}.${body}`).digest('hex')}`);
      try {
        const r = await fetch(h.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000), redirect: 'error' });
        await r.arrayBuffer().catch(() => undefined);
        if (r.ok) return null;
        why = `HTTP ${r.status}`;
        if (r.status === 429) {
          const after = Number(r.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) await sleep(Math.min(after * 1000, 300_000));
        } else if (r.status < 500) return why; // refused: asking again would not help
      } catch (e) {
        why = (e as Error).message;
      }
    }
    return `${why} (${attempts} attempts)`;
  };

  const handle = async (n: EditionNews, news: boolean): Promise<void> => {
    const state = readState(opts.stateFile);
    const now = (): string => new Date().toISOString();
    const due: Webhook[] = [];
    for (const h of opts.hooks) {
      const had = state.get(keyOf(h));
      if (!had && !news) state.set(keyOf(h), { edition: n.edition, at: now(), outcome: 'baseline' });
      else if (!had || n.edition > had.edition) {
        state.set(keyOf(h), { edition: n.edition, at: now(), outcome: 'sending' });
        due.push(h);
      }
    }
    writeState(opts.stateFile, state);
    for (const h of due) {
      const failed = await deliver(h, n);
      const host = new URL(h.url).host;
      opts.log(failed ? `crkb: webhook ${host}: CR ${n.edition} not delivered: ${failed}` : `crkb: webhook ${host}: told of CR ${n.edition}`);
      const now2 = readState(opts.stateFile);
      now2.set(keyOf(h), { edition: n.edition, at: now(), outcome: failed ? 'failed' : 'delivered', ...(failed ? { detail: failed } : {}) });
      writeState(opts.stateFile, now2);
    }
  };

  return {
    seen(n, how) {
      // one at a time: a second edition waits for the first one's deliveries
      chain = chain.then(() => handle(n, how.news)).catch((e: Error) => opts.log(`crkb: webhooks: ${e.message}`));
      return chain;
    },
  };
}
