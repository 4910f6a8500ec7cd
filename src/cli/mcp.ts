import { createMcpServer } from '../integrations/mcp/createMcpServer.js';
import { LineTransport } from '../integrations/mcp/LineTransport.js';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import { knownFromManifest } from './knownFromManifest.js';
import { parseOptions } from './options.js';
import { existingDbFile } from './withKb.js';

export const usage = `Usage: crkb mcp [--db FILE]

Speaks the Model Context Protocol over stdin/stdout, for AI assistants: tools
lookup_rule, search_rules, define_term, diff_editions, rule_history and
check_citations, each answer with its provenance (edition, source file sha256).
Ends when stdin closes. Configure your assistant to run: npx crkb mcp --db data/crkb.db`;

/** `crkb mcp`: an MCP server over stdio until stdin closes. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { db: { type: 'string' } }, usage, false);
  const file = existingDbFile(values.db, usage);
  const kb = KnowledgeBase.open(file);
  kb.known = await knownFromManifest();
  const server = createMcpServer(kb);
  const transport = new LineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((done) => {
    server.server.onclose = done;
    process.stdin.once('end', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.connect(transport);
  await closed;
  await server.close();
  kb.close();
  return 0;
}
