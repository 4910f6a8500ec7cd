import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Lexer, Source, TokenKind } from 'graphql';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { GraphqlEndpoint } from '../../src/server/graphqlEndpoint.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { fixtureDb } from './fixtures.js';

let built: BuiltServer;
before(async () => {
  built = await buildServer({ db: fixtureDb(), responseCache: false });
});
after(() => built.close());

/** The tokens graphql-js's lexer reads in a document (comments and the end are not tokens). */
function tokens(query: string): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

/** A valid document of exactly `n` tokens: citations of a list of numbers ("1" strings are one token each). */
function documentOf(n: number): string {
  const head = '{ citations(asOf: "2021-07-23", numbers: [';
  const tail = ']) { markdown } }';
  const fixed = tokens(head + tail);
  const q = head + Array.from({ length: n - fixed }, () => '"1"').join(' ') + tail;
  assert.equal(tokens(q), n);
  return q;
}

test('a document of 2,000 tokens is parsed, one of 2,001 is refused as too many tokens', async () => {
  const codeOf = async (q: string) => {
    const r = await built.graphql(q);
    const body = JSON.parse(r.body) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
    return body.errors?.map((e) => `${e.extensions?.code ?? ''} ${e.message}`).join('; ') ?? 'no error';
  };
  const at = await codeOf(documentOf(2000));
  assert.doesNotMatch(at, /token/i);
  const over = await codeOf(documentOf(2001));
  assert.match(over, /token/i);
  assert.match(over, /2000/);
});

test('the GraphQL document cache keeps at most 16 MB by its estimate, counting 48 bytes a character of the document', async () => {
  const kb = new KnowledgeBase(fixtureDb());
  const endpoint = new GraphqlEndpoint({ kb: () => kb, limits: DEFAULT_LIMITS, timeLimitMs: 5000 });
  const MB = 1024 * 1024;
  try {
    // a long comment makes a long document of three tokens: about 2.9 MB each by the estimate
    const chars = 60_000;
    let largest = 0;
    for (let i = 0; i < 12; i++) {
      const query = `# ${String(i).padStart(6, '0')}${'x'.repeat(chars)}\n{ __typename }`;
      const before = endpoint.documentCache.calculatedSize;
      const r = await endpoint.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      assert.equal(r.status, 200, r.body);
      if (i === 0) {
        largest = endpoint.documentCache.calculatedSize - before;
        assert.ok(largest >= 48 * chars, `a ${chars}-character document counts ${largest} bytes`);
      }
      assert.ok(endpoint.documentCache.calculatedSize <= 16 * MB, `${endpoint.documentCache.calculatedSize} bytes after ${i + 1} documents`);
    }
    // 12 documents of ~2.9 MB overflowed it: it holds as many as fit
    assert.ok(endpoint.documentCache.calculatedSize > 16 * MB - largest, `${endpoint.documentCache.calculatedSize} bytes`);
  } finally {
    kb.close();
  }
});
