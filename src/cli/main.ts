import { UsageError } from './UsageError.js';

interface Command {
  run(argv: string[]): Promise<number>;
  usage: string;
}

const commands = new Map<string, { summary: string; load: () => Promise<Command> }>(
  Object.entries({
    ingest: { summary: 'ingest files, folders, URLs or the sources manifest', load: () => import('./ingest.js') },
    editions: { summary: 'list stored editions', load: () => import('./editions.js') },
    export: { summary: 'print one edition as JSON', load: () => import('./export.js') },
    manifest: { summary: 'regenerate data/sources.json from an archive', load: () => import('./manifest.js') },
    update: { summary: 'download and ingest editions newer than the newest stored, print their release notes', load: () => import('./update.js') },
    publish: { summary: 'write the database as a content-addressed artifact and current.json (for serve --db-url)', load: () => import('./publish.js') },
    serve: { summary: 'serve the GraphQL API and bot endpoints', load: () => import('./serve.js') },
    start: { summary: 'build the database if missing, then serve it', load: () => import('./start.js') },
    rule: { summary: 'print one rule (with subrules)', load: () => import('./rule.js') },
    search: { summary: 'full-text search of an edition', load: () => import('./search.js') },
    diff: { summary: 'compare two editions rule by rule', load: () => import('./diff.js') },
    history: { summary: "a rule's history across editions", load: () => import('./history.js') },
    refs: { summary: "a rule's cross-references (outgoing, --incoming, --dangling)", load: () => import('./refs.js') },
    cite: { summary: 'check rule citations in a file against a later edition', load: () => import('./cite.js') },
    discord: { summary: 'print or register the Discord slash commands', load: () => import('./discord.js') },
    mcp: { summary: 'serve the Model Context Protocol over stdio (AI assistants)', load: () => import('./mcp.js') },
    identify: { summary: 'print the provenance report of a file or URL (stores nothing)', load: () => import('./identify.js') },
  }),
);

const usage = `Usage: crkb <command> [options]

Commands:
${[...commands].map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`).join('\n')}

Run "crkb <command> --help" for a command's options.`;

/** Dispatches to a subcommand and turns usage mistakes into exit status 1. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage);
    return name === undefined ? 1 : 0;
  }
  const entry = commands.get(name);
  if (!entry) {
    console.error(`crkb: unknown command "${name}"\n\n${usage}`);
    return 1;
  }
  const command = await entry.load();
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.usage);
      return 0;
    }
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`crkb ${name}: ${e.message}\n\n${e.usage}`);
      return 1;
    }
    throw e;
  }
}

// Output piped into `head` and the like: a closed pipe ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`crkb: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
