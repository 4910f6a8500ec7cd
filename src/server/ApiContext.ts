import type { EditionInfo, Family } from '../core/records.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { apiError, toApiError } from './errors.js';

/** How cacheable a response is: pinned to exact editions, or depending on which edition is the latest. */
export interface CacheScope {
  exact: number;
  loose: number;
}

/** Per-request context of the GraphQL resolvers. */
export interface ApiContext {
  kb: KnowledgeBase;
  cache: CacheScope;
  /** Throws TIMEOUT once the request's time is up (checked by the resolvers of costly fields). */
  check(): void;
  /** Resolves an edition argument, recording how cacheable the answer is. */
  edition(arg: string | null | undefined, argument?: string, family?: Family | null): EditionInfo;
  /** Runs a query-layer call, turning its errors into API errors. */
  run<T>(f: () => T): T;
  /** The operation's cost in work units (src/server/limits.ts), known once it is judged, before it runs. */
  cost?: number;
}

/** Builds the context of one GraphQL request. */
export function createApiContext(kb: KnowledgeBase, timeLimitMs: number, scope?: CacheScope): ApiContext {
  const deadline = Date.now() + timeLimitMs;
  const cache: CacheScope = scope ?? { exact: 0, loose: 0 };
  const run = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw toApiError(e);
    }
  };
  return {
    kb,
    cache,
    check() {
      if (Date.now() > deadline) throw apiError('TIMEOUT', `the request took longer than ${timeLimitMs} ms`);
    },
    edition(arg, argument = 'edition', family = 'cr') {
      const r = run(() => kb.resolveEdition(arg, family ?? 'cr', argument));
      if (r.exact) cache.exact++;
      else cache.loose++;
      return r.edition;
    },
    run,
  };
}
