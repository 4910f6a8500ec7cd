import type { EditionInfo, GlossaryRecord, Reader, RuleRecord, TextRefRecord } from '../db/Reader.js';
import { BatchLoader } from './BatchLoader.js';
import { resolveEditionArg } from './args.js';
import { apiError } from './errors.js';
import type { Engine } from './engine.js';

/** How cacheable a response is: pinned to exact edition dates, or depending on what is latest. */
export interface CacheScope {
  exact: number;
  loose: number;
}

/** Per-request context of the GraphQL resolvers: the reader, batch loaders and bookkeeping. */
export interface ApiContext {
  reader: Reader;
  engine: Engine;
  loaders: ReturnType<typeof makeLoaders>;
  cache: CacheScope;
  /** Epoch ms after which further batches fail with TIMEOUT. */
  deadline: number;
  /** Resolves an edition argument, recording how cacheable the answer is. */
  edition(arg: string | null | undefined): EditionInfo;
}

type EK = { editionId: number; key: string };
const ek = (k: EK) => `${k.editionId}\u0000${k.key}`;

function byEdition<V>(keys: EK[], load: (editionId: number, ks: string[]) => Map<string, V>, dflt: V): V[] {
  const groups = new Map<number, string[]>();
  for (const k of keys) {
    const g = groups.get(k.editionId);
    if (g) g.push(k.key);
    else groups.set(k.editionId, [k.key]);
  }
  const results = new Map<number, Map<string, V>>();
  for (const [e, ks] of groups) results.set(e, load(e, [...new Set(ks)]));
  return keys.map((k) => results.get(k.editionId)?.get(k.key) ?? dflt);
}

function makeLoaders(reader: Reader, check: () => void) {
  return {
    rule: new BatchLoader<EK, RuleRecord | null>(
      (keys) =>
        byEdition(
          keys,
          (e, ns) => {
            const m = new Map<string, RuleRecord | null>();
            reader.rulesByNumbers(e, ns).forEach((r, i) => m.set(ns[i]!, r));
            return m;
          },
          null,
        ),
      ek,
      check,
    ),
    children: new BatchLoader<EK, RuleRecord[]>((keys) => byEdition(keys, (e, ns) => reader.childrenOf(e, ns), []), ek, check),
    citing: new BatchLoader<EK, RuleRecord[]>((keys) => byEdition(keys, (e, ns) => reader.citing(e, ns), []), ek, check),
    glossaryCiting: new BatchLoader<EK, GlossaryRecord[]>(
      (keys) => byEdition(keys, (e, ns) => reader.glossaryCiting(e, ns), []),
      ek,
      check,
    ),
    text: new BatchLoader<number, string>(
      (ids) => {
        const m = reader.texts([...new Set(ids)]);
        return ids.map((id) => m.get(id) ?? '');
      },
      String,
      check,
    ),
    refs: new BatchLoader<number, TextRefRecord[]>(
      (ids) => {
        const m = reader.refsOfTexts([...new Set(ids)]);
        return ids.map((id) => m.get(id) ?? []);
      },
      String,
      check,
    ),
    edition: new BatchLoader<number, EditionInfo | null>((ids) => reader.editionsByIds(ids), String, check),
    partNumbers: new BatchLoader<number, Set<string>>(
      (ids) => ids.map((id) => new Set(reader.parts(id).map((p) => p.number))),
      String,
      check,
    ),
  };
}

/** Builds the context of one GraphQL request. */
export function createApiContext(
  reader: Reader,
  engine: Engine,
  timeLimitMs: number,
  scope?: CacheScope,
): ApiContext {
  const deadline = Date.now() + timeLimitMs;
  const check = () => {
    if (Date.now() > deadline) throw apiError('TIMEOUT', `the request took longer than ${timeLimitMs} ms`);
  };
  const cache: CacheScope = scope ?? { exact: 0, loose: 0 };
  return {
    reader,
    engine,
    loaders: makeLoaders(reader, check),
    cache,
    deadline,
    edition(arg) {
      check();
      const r = resolveEditionArg(reader, arg);
      if (r.exact) cache.exact++;
      else cache.loose++;
      return r.edition;
    },
  };
}
