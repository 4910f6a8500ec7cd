import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { EditionInfo, Family } from '../../core/records.js';
import { CITED_FAMILIES, DOCUMENT_FAMILIES } from '../../core/families.js';
import { documentName, familyLabel, isPolicyFamily } from '../../core/policyUnit.js';
import { checkCitations, citationsJson } from '../../query/checkCitations.js';
import { textClass } from '../../query/changeSegments.js';
import { diffCounts } from '../../query/diffCounts.js';
import { ruleNumberArg, scopeArg } from '../../query/edgeArgs.js';
import {
  citationsMarkdown,
  diffLine,
  errorText,
  formatLookup,
  historyStepLine,
  subruleWords,
  historySummary,
  lookupJson,
  newerKnownLine,
  searchHitJson,
  searchLines,
  snippetStyle,
} from '../../query/chatText.js';
import { currentPlace } from '../../query/currentPlace.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { QueryError } from '../../query/QueryError.js';

/** Where an answer comes from: the edition, where its text was read from and the file's sha256. */
const provenanceShape = z.object({
  effectiveDate: z.string(),
  setCode: z.string().nullable(),
  setName: z.string().nullable(),
  source: z.string().nullable().describe('Its official address, its place in a public archive or its file name (never a local path).'),
  officialCopy: z.boolean().nullable().describe('Whether the text was read from an official copy published by Wizards of the Coast.'),
  sha256: z.string().nullable(),
});
type Provenance = z.infer<typeof provenanceShape>;
const newerKnownShape = z.object({
  effectiveDate: z.string(),
  setCode: z.string().nullable(),
  setName: z.string().nullable(),
  missing: z.number().int().describe('How many known editions in force today are newer than the newest stored.'),
  how: z.literal('crkb update'),
});
const provenance = {
  provenance: z.array(provenanceShape).describe('The editions the answer read.'),
  newerKnown: newerKnownShape
    .nullable()
    .describe(
      'The newest edition the sources manifest knows, in force today, that the database does not store (its answers read older rules); null when up to date.',
    ),
};

/** Longest text answer a tool gives, in characters: answers stay well under 25 KB (a history or a diff pages instead). */
const MAX_TEXT = 12_000;
/** Longest rule text in a diff or history line; the whole text is one lookup_rule away. */
const MAX_LINE_TEXT = 300;

// What each tool's structuredContent holds (its outputSchema).
const ruleOut = z.object({ number: z.string(), parent: z.string().nullable(), text: z.string(), examples: z.array(z.string()).optional() });
const glossaryOut = z.object({ term: z.string(), definition: z.string() });
const lookupOut = {
  query: z.string(),
  kind: z.enum(['rule', 'range', 'example', 'keyword', 'interaction', 'glossary', 'fuzzy', 'search', 'none']),
  matched: z.string().nullable(),
  edition: z.string(),
  numbering: z.string().optional().describe("Present when the document publishes no numbers (the JAR): the numbers are crkb's, and this says so."),
  rules: z.array(ruleOut),
  glossary: z.array(glossaryOut),
  example: z.object({ index: z.number().int(), text: z.string() }).optional(),
  suggestions: z.array(z.string()),
  url: z.string(),
  ...provenance,
};
const searchOut = {
  query: z.string(),
  edition: z.string(),
  hits: z.array(
    z.object({
      kind: z.enum(['rule', 'example', 'glossary']),
      number: z.string().nullable(),
      term: z.string().nullable(),
      exampleIndex: z.number().int().nullable(),
      snippet: z.string(),
      correctedQuery: z.string().optional(),
    }),
  ),
  ...provenance,
};
const defineOut = { term: z.string().nullable(), edition: z.string(), glossary: z.array(glossaryOut), rules: z.array(ruleOut), ...provenance };
const textChange = z.enum(['none', 'typography', 'references', 'correction', 'substantive']);
const page = {
  total: z.number().int().describe('How many there are in all.'),
  offset: z.number().int(),
  next: z.number().int().nullable().describe('The offset of the next page, or null on the last.'),
};
const diffOut = {
  from: z.string(),
  to: z.string(),
  section: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()),
  ...page,
  changes: z.array(
    z.object({
      before: z.string().nullable().describe('The number before, null when added.'),
      after: z.string().nullable().describe('The number after, null when removed.'),
      renumbered: z.boolean(),
      textChange,
      text: z.string().describe(`The text after (before, when removed), cut at ${MAX_LINE_TEXT} characters.`),
    }),
  ),
  ...provenance,
};
const historyOut = {
  number: z.string(),
  edition: z.string(),
  numbers: z.array(z.string()),
  first: z.string(),
  last: z.string(),
  editions: z.number().int(),
  ...page,
  steps: z.array(
    z.object({
      date: z.string(),
      number: z.string(),
      change: z.enum(['added', 'unchanged', 'changed', 'returned']),
      renumbered: z.boolean(),
      previousNumber: z.string().nullable(),
      textChange: textChange.nullable(),
      text: z.string().describe(`The text then, cut at ${MAX_LINE_TEXT} characters.`),
      subrules: z
        .string()
        .nullable()
        .describe('The subrules added, removed, renumbered and changed since the previous step (at most 6 numbers of each kind), or null.'),
    }),
  ),
  ...provenance,
};
const citedRule = z.object({ number: z.string(), text: z.string().describe(`Its text, cut at ${MAX_LINE_TEXT} characters.`) });
const citationStatus = z.enum(['same', 'moved', 'changed', 'gone', 'unknown']);
const citationsOut = {
  asOf: z.string(),
  to: z.string(),
  counts: z.partialRecord(citationStatus, z.number().int()).describe('How many citations have each status, over every citation (not only this page).'),
  ...page,
  citations: z.array(
    z.object({
      cited: z.string().describe('The number as cited ("IPG 2.1" for a tournament document).'),
      family: z.enum(CITED_FAMILIES).describe('The document cited, checked in its own editions in force at asOf and to.'),
      title: z.string().nullable(),
      then: citedRule.nullable(),
      status: citationStatus,
      now: citedRule.nullable(),
      goneSince: z.string().nullable(),
      textChange: textChange.nullable(),
      titleMatches: z.boolean().nullable(),
    }),
  ),
  ...provenance,
};
const clip = (t: string): string => (t.length > MAX_LINE_TEXT ? `${t.slice(0, MAX_LINE_TEXT - 1)}…` : t);
const offsetArg = z.number().int().min(0).max(100_000).optional().describe('Skip this many (paging; the answer gives the next offset).');

const family = z
  .enum(DOCUMENT_FAMILIES)
  .optional()
  .describe(
    'The document: cr (Comprehensive Rules, default), mtr (Magic Tournament Rules), ipg (Infraction Procedure Guide) or jar (Judging at Regular REL, whose unit numbers are crkb’s positions, not published ones).',
  );

const edition = z
  .string()
  .max(64)
  .optional()
  .describe('Edition: an effective date, any date (the edition in force that day), a set code such as AFR, or "latest" (default).');

/**
 * The crkb MCP server: tools to look up a rule in any edition, search, define a term, diff two
 * editions, show a rule's history and check citations. Every answer carries the provenance of
 * the editions it read (effective date, source file, sha256), in its text and its structured content.
 */
export function createMcpServer(kb: KnowledgeBase, version = '0.1.0'): McpServer {
  const server = new McpServer(
    { name: 'crkb', version },
    {
      instructions:
        'Every edition of the Magic: The Gathering Comprehensive Rules (1999 to today), the Magic Tournament Rules (MTR), the Infraction Procedure Guide (IPG) and Judging at Regular REL (JAR; it numbers nothing, so its unit numbers are crkb’s positions). Pick the document with `family`. Cite rules and sections with the edition and sha256 the answers give.',
    },
  );
  const summaries = new Map(kb.editionSummaries().map((s) => [s.id, s]));
  const summaryOf = (e: EditionInfo) => {
    if (!summaries.has(e.id)) for (const x of kb.editionSummaries(e.family)) summaries.set(x.id, x);
    return summaries.get(e.id);
  };
  const provenanceOf = (e: EditionInfo): Provenance => {
    const s = summaryOf(e);
    return {
      effectiveDate: e.effectiveDate,
      setCode: e.setCode,
      setName: e.setName,
      source: s?.source ?? null,
      officialCopy: s?.officialCopy ?? null,
      sha256: s?.sha256 ?? null,
    };
  };
  const source = (p: Provenance, f: Family): string =>
    `Source: ${documentName(f)} effective ${p.effectiveDate}${p.setCode ? ` (${p.setCode})` : ''}${p.sha256 ? `, ${p.officialCopy === false ? 'non-official copy' : 'file'} ${p.source ?? '?'} sha256 ${p.sha256}` : ''}`;
  const answer = (text: string, data: Record<string, unknown>, editions: EditionInfo[]): CallToolResult => {
    const prov = editions.map(provenanceOf);
    const body = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (cut at ${MAX_TEXT} characters)` : text;
    // stale only when every edition the answer read is one the manifest follows
    const newerKnown = editions.every((e) => kb.newerKnownFor(e) !== null) ? kb.newerKnown() : null;
    const stale = newerKnown ? [newerKnownLine(newerKnown, 'text')] : [];
    return {
      content: [{ type: 'text', text: [body, '', ...prov.map((p, k) => source(p, editions[k]!.family)), ...stale].join('\n') }],
      structuredContent: { ...data, provenance: prov, newerKnown },
    };
  };
  // A query-layer error is the tool's answer (isError), with the nearest candidates; anything else is a bug.
  const tool =
    <A>(f: (args: A) => CallToolResult) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return f(args);
      } catch (e) {
        if (!(e instanceof QueryError)) throw e;
        const where = e.details.argument ? `${e.details.argument}: ` : '';
        return { isError: true, content: [{ type: 'text', text: `${where}${errorText(e, 'text')}` }] };
      }
    };
  const ed = (arg: string | undefined, name = 'edition', f: Family = 'cr') => kb.resolveEdition(arg, f, name).edition;

  server.registerTool(
    'lookup_rule',
    {
      title: 'Look up a rule',
      description:
        'A rule with its subrules as it reads in any edition: a number ("702.19b"), a range ("601.2a-h"), one example ("702.19b ex 2"), a keyword ("trample"), a glossary term or abbreviation ("sba", "etb"). With family mtr, ipg or jar (or a query naming it: "ipg 2.1", "mtr 4.2", "jar missed trigger"), a section of the tournament documents by number or title words ("missed trigger"), with its penalty.',
      inputSchema: {
        query: z.string().min(1).max(100).describe('What to look up.'),
        family,
        edition,
        examples: z.boolean().optional().describe('Include the examples.'),
      },
      outputSchema: lookupOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(
      ({
        query,
        family: f,
        edition: e,
        examples,
      }: {
        query: string;
        family?: Family | undefined;
        edition?: string | undefined;
        examples?: boolean | undefined;
      }) => {
        const scope = kb.lookupScope(e, query, f ?? 'cr');
        const en = scope.edition;
        const a = kb.lookup(en, scope.query);
        const examplesOf = (r: Parameters<typeof kb.examples>[0]) => kb.examples(r);
        const fo = { examples: examples === true, fullUrl: '', full: true };
        return answer(formatLookup(a, 'markdown', examplesOf, fo), lookupJson(a, examplesOf, fo), [en]);
      },
    ),
  );

  server.registerTool(
    'search_rules',
    {
      title: 'Search the rules',
      description:
        'Full-text search (bm25 ranking, typo tolerant) over the rules, examples and glossary of one edition; with family mtr, ipg or jar, over the sections of the tournament documents.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('Plain words.'),
        family,
        edition,
        limit: z.number().int().min(1).max(50).optional().describe('Hits, 1-50 (default 10).'),
      },
      outputSchema: searchOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(
      ({ query, family: f, edition: e, limit }: { query: string; family?: Family | undefined; edition?: string | undefined; limit?: number | undefined }) => {
        const en = ed(e, 'edition', f);
        const hits = kb.search(en.id, query, { limit: limit ?? 10, ...snippetStyle('markdown') });
        return answer(searchLines(hits, query, en.effectiveDate, 'markdown').join('\n'), { query, edition: en.effectiveDate, hits: hits.map(searchHitJson) }, [
          en,
        ]);
      },
    ),
  );

  server.registerTool(
    'define_term',
    {
      title: 'Define a term',
      description: 'A glossary term ("dies", "token", "APNAP order", "sba") with the rules it points to.',
      inputSchema: { term: z.string().min(1).max(100).describe('The term.'), edition },
      outputSchema: defineOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(({ term, edition: e }: { term: string; edition?: string | undefined }) => {
      const en = ed(e);
      const a = kb.lookup(en, term);
      // a misspelt term is answered as lookup_rule answers it ("Showing …"); no glossary entry at all: NOT_FOUND with the closest terms
      if (a.glossary.length === 0) kb.glossaryTermOrThrow(en, term);
      const examplesOf = () => [];
      const fo = { examples: false, fullUrl: '', full: true };
      const json = lookupJson(a, examplesOf, fo);
      return answer(formatLookup(a, 'markdown', examplesOf, fo), { term: a.matched, edition: en.effectiveDate, glossary: json.glossary, rules: json.rules }, [
        en,
      ]);
    }),
  );

  server.registerTool(
    'diff_editions',
    {
      title: 'Diff two editions',
      description:
        'Rules added, removed, renumbered or changed between two editions (any two), optionally within a part, section or rule; with family mtr, ipg or jar, the sections of two editions of the tournament documents.',
      inputSchema: {
        family,
        from: z.string().max(64).describe('The earlier edition (date or set code).'),
        to: z.string().max(64).describe('The later edition (date, set code or "latest").'),
        section: z.string().max(20).optional().describe('Keep one part ("7"), section ("702") or rule ("702.19").'),
        limit: z.number().int().min(1).max(25).optional().describe('Changes per page, 1-25 (default 20): a page stays under 20 KB.'),
        offset: offsetArg,
      },
      outputSchema: diffOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(
      ({
        family: f,
        from,
        to,
        section,
        limit,
        offset,
      }: {
        family?: Family | undefined;
        from: string;
        to: string;
        section?: string | undefined;
        limit?: number | undefined;
        offset?: number | undefined;
      }) => {
        const a = ed(from, 'from', f);
        const b = ed(to, 'to', f);
        const s = f !== undefined && isPolicyFamily(f) ? (section ? ruleNumberArg(section, 'section', f) : null) : scopeArg(section);
        const d = kb.diff(a, b, { ...(s ? { section: s } : {}), rulesOnly: true, segments: false });
        const at = offset ?? 0;
        const shown = d.changes.slice(at, at + (limit ?? 20));
        const changes = shown.map((c) => ({
          before: c.before?.number ?? null,
          after: c.after?.number ?? null,
          renumbered: c.renumbered,
          textChange: textClass(c),
          text: clip((c.after ?? c.before)?.text ?? ''),
        }));
        const counts = diffCounts(d.changes);
        const next = at + shown.length < d.changes.length ? at + shown.length : null;
        const lines = [
          `${a.effectiveDate} → ${b.effectiveDate}${s ? `, ${s}` : ''}: ${d.changes.length} changes (${Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ')})${d.changes.length > shown.length ? `; ${at + 1}–${at + shown.length} shown` : ''}`,
          ...shown.map((c) => diffLine(c, 'text', MAX_LINE_TEXT)),
        ];
        if (next !== null) lines.push(`… ${d.changes.length - next} more changes: ask again with offset ${next}, or narrow the section`);
        const data = { from: a.effectiveDate, to: b.effectiveDate, section: s ?? null, counts, total: d.changes.length, offset: at, next, changes };
        return answer(lines.join('\n'), data, [a, b]);
      },
    ),
  );

  server.registerTool(
    'rule_history',
    {
      title: "A rule's history",
      description:
        'Every edition a rule (or, with family mtr, ipg or jar, a section of the tournament documents) appears in, across renumbering, and what changed at each step.',
      inputSchema: {
        number: z.string().max(20).describe('The rule number (or section, "2.1"), as numbered in `edition`.'),
        family,
        edition,
        limit: z.number().int().min(1).max(25).optional().describe('Steps per page, 1-25 (default 20): a page stays under 20 KB.'),
        offset: offsetArg,
      },
      outputSchema: historyOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(
      ({
        number,
        family: f,
        edition: e,
        limit,
        offset,
      }: {
        number: string;
        family?: Family | undefined;
        edition?: string | undefined;
        limit?: number | undefined;
        offset?: number | undefined;
      }) => {
        const n = ruleNumberArg(number, 'number', f ?? 'cr');
        const en = f !== undefined && isPolicyFamily(f) ? ed(e, 'edition', f) : currentPlace(kb, n, ed(e)).edition;
        const h = kb.history(en, n);
        if (!h) throw new QueryError('NOT_FOUND', `no ${familyLabel(en.family)} ${n} in the ${en.effectiveDate} edition`, { edition: en.effectiveDate });
        const changed = h.steps.filter((s) => s.change !== 'unchanged');
        const at = offset ?? 0;
        const shown = changed.slice(at, at + (limit ?? 20));
        const next = at + shown.length < changed.length ? at + shown.length : null;
        const steps = shown.map((s) => ({
          date: s.date,
          number: s.number,
          change: s.change,
          renumbered: s.renumbered,
          previousNumber: s.previousNumber ?? null,
          textChange: s.textChange ?? null,
          text: clip(s.text),
          subrules: s.subrules ? subruleWords(s.subrules) : null,
        }));
        const lines = [
          `${n} (${en.effectiveDate}): ${historySummary(h)}${changed.length > shown.length ? `; steps ${at + 1}–${at + shown.length} of ${changed.length}` : ''}`,
          ...shown.map((s) => historyStepLine({ ...s, text: clip(s.text) }, 'text', true)),
        ];
        if (next !== null) lines.push(`… ${changed.length - next} more steps: ask again with offset ${next}`);
        const data = {
          number: n,
          edition: en.effectiveDate,
          numbers: h.numbers,
          first: h.first,
          last: h.last,
          editions: h.steps.length,
          total: changed.length,
          offset: at,
          next,
          steps,
        };
        return answer(lines.join('\n'), data, [en]);
      },
    ),
  );

  server.registerTool(
    'check_citations',
    {
      title: 'Check rule citations',
      description:
        'Checks rule citations written against one edition in another (default latest): same, moved (renumbered), changed, gone (and since when), or not a rule then; a title quoted after a number is checked too. Sections of the tournament documents ("MTR 2.3", "IPG 2.1") are checked in that document’s editions in force then and now. Give text or numbers; a long list pages (limit, offset), with counts over all.',
      inputSchema: {
        text: z
          .string()
          .max(200_000)
          .optional()
          .describe('A text citing rules ("rule 706.10", "rules 601.2a-h") or tournament-document sections ("MTR 2.3", "IPG 3.2 (Game Rule Violation)").'),
        numbers: z.array(z.string().max(20)).max(1000).optional().describe('Rule numbers ("704.5", "MTR 2.3", "IPG 2.1") instead of a text.'),
        asOf: z.string().max(64).describe('When the citations were written: a date or set code.'),
        to: z.string().max(64).optional().describe('Check them in this edition (default latest).'),
        limit: z.number().int().min(1).max(25).optional().describe('Citations per page, 1-25 (default 20): a page stays under 20 KB.'),
        offset: offsetArg,
      },
      outputSchema: citationsOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(
      ({
        text,
        numbers,
        asOf,
        to,
        limit,
        offset,
      }: {
        text?: string | undefined;
        numbers?: string[] | undefined;
        asOf: string;
        to?: string | undefined;
        limit?: number | undefined;
        offset?: number | undefined;
      }) => {
        const r = checkCitations(kb, { text: text ?? null, numbers: numbers ?? null, asOf, to: to ?? null });
        const all = citationsJson(r);
        const at = offset ?? 0;
        const shown = all.citations.slice(at, at + (limit ?? 20));
        const next = at + shown.length < all.citations.length ? at + shown.length : null;
        const counts: Partial<Record<(typeof all.citations)[number]['status'], number>> = {};
        for (const c of all.citations) counts[c.status] = (counts[c.status] ?? 0) + 1;
        const clipRule = (c: { number: string; text: string } | null) => c && { number: c.number, text: clip(c.text) };
        const citations = shown.map((c) => ({ ...c, then: clipRule(c.then), now: clipRule(c.now) }));
        const lines = [
          `${all.citations.length} citations (${Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ')})${all.citations.length > shown.length ? `; ${at + 1}–${at + shown.length} shown` : ''}`,
          '',
          citationsMarkdown({ ...r, citations: shown }),
        ];
        if (next !== null) lines.push('', `… ${all.citations.length - next} more citations: ask again with offset ${next}`);
        const data = { asOf: all.asOf, to: all.to, counts, total: all.citations.length, offset: at, next, citations };
        return answer(lines.join('\n'), data, [r.asOf, r.to]);
      },
    ),
  );
  return server;
}
