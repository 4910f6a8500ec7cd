import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import type { Reader } from '../db/Reader.js';
import { schemaDir } from '../db/openDb.js';
import { createApiContext, type ApiContext, type CacheScope } from './ApiContext.js';
import type { Engine } from './engine.js';
import { limitsRule, type QueryLimits } from './limits.js';
import { resolvers } from './resolvers/index.js';

/** The GraphQL SDL: every schema/*.graphql file, in name order, read once. */
export function loadTypeDefs(): string {
  const dir = schemaDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** What the HTTP layer may pass along with a request. */
export interface ServerContext {
  /** Filled with how the answer's editions were chosen (for Cache-Control). */
  cacheScope?: CacheScope;
}

/** Options of the GraphQL endpoint. */
export interface ApiYogaOptions {
  reader: Reader;
  engine: Engine;
  limits: QueryLimits;
  timeLimitMs: number;
}

/** The executable schema of the API: the SDL with its resolvers. */
export function createApiSchema() {
  return createSchema<ApiContext>({ typeDefs: loadTypeDefs(), resolvers });
}

/** Builds the yoga instance serving /graphql (GraphiQL in a browser) with masked errors and query limits. */
export function createApiYoga(opts: ApiYogaOptions & { schema?: ReturnType<typeof createApiSchema> }) {
  const schema = opts.schema ?? createApiSchema();
  const limits: Plugin = {
    onValidate({ addValidationRule }) {
      addValidationRule(limitsRule(opts.limits));
    },
  };
  return createYoga<ServerContext, ApiContext>({
    schema,
    graphqlEndpoint: '/graphql',
    context: (init) => createApiContext(opts.reader, opts.engine, opts.timeLimitMs, init.cacheScope),
    maskedErrors: { isDev: false },
    logging: false,
    landingPage: false,
    batching: false,
    plugins: [limits],
  });
}
