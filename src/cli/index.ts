// The CLI entry point is main.ts (bin/crkb.js runs it); this lists what the subcommands export.
export { UsageError } from './UsageError.js';
export { familyOption, resolveEditionArg, summarizeRenumbering } from './diff.js';
export { nearestNumbers } from './history.js';
export { formatProvenance } from './identify.js';
export { formatReport } from './ingest.js';
export { inlineWordDiff } from './inlineWordDiff.js';
export { openDbOption } from './openDbOption.js';
export { defaultDbFile, parseOptions } from './options.js';
export type { OutgoingRef } from './refs.js';
