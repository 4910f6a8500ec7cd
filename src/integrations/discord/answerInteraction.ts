import type { EditionInfo } from '../../core/records.js';
import { PREFIX_RE, numberLevel } from '../../core/ruleNumber.js';
import { closestTerms } from '../../core/suggest.js';
import {
  CHAT_LIMIT,
  capLines,
  clip,
  diffLine,
  editionLine,
  errorText,
  formatLookup,
  historyStepLine,
  historySummary,
  searchLines,
  snippetStyle,
} from '../../query/chatText.js';
import type { LookupAnswer } from '../../query/answerLookup.js';
import { currentPlace } from '../../query/currentPlace.js';
import { requiredArg, ruleNumberArg, scopeArg } from '../../query/edgeArgs.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { QueryError } from '../../query/QueryError.js';

/** Interaction types Discord sends, and response types we answer with. */
const PING = 1;
const COMMAND = 2;
const AUTOCOMPLETE = 4;
const PONG = 1;
const MESSAGE = 4;
const CHOICES = 8;
/** Message flag: only the user who asked sees it. */
const EPHEMERAL = 64;

/** The parts of an interaction read here. */
export interface Interaction {
  type: number;
  data?: { name?: string; options?: Array<{ name: string; type?: number; value?: unknown; focused?: boolean }> };
}

/** An interaction response as Discord takes it. */
export type InteractionResponse =
  | { type: typeof PONG }
  | { type: typeof MESSAGE; data: { content: string; flags?: number; allowed_mentions: { parse: [] } } }
  | { type: typeof CHOICES; data: { choices: Array<{ name: string; value: string }> } };

/**
 * Answers one Discord interaction (already verified): PING, a slash command (/cr, /define, /search,
 * /diff, /history) as a chat-sized Markdown message with a link to the web page for the rest, or
 * autocomplete choices for numbers, terms and editions. Pages live under `publicUrl`.
 */
export function answerInteraction(kb: KnowledgeBase, i: Interaction, publicUrl: string): InteractionResponse {
  if (i.type === PING) return { type: PONG };
  // signed by Discord, but read defensively all the same
  const given = Array.isArray(i.data?.options) ? i.data.options : [];
  const opts = new Map(given.filter((o) => typeof o === 'object' && o !== null).map((o) => [String(o.name), o]));
  const name = typeof i.data?.name === 'string' ? i.data.name : '';
  const str = (name: string): string | undefined => {
    const v = opts.get(name)?.value;
    return typeof v === 'string' ? v : undefined;
  };
  if (i.type === AUTOCOMPLETE) return { type: CHOICES, data: { choices: autocomplete(kb, name, opts, str) } };
  const ephemeral = opts.get('ephemeral')?.value === true;
  const message = (content: string, hidden = ephemeral): InteractionResponse => ({
    type: MESSAGE,
    data: { content: clip(content, CHAT_LIMIT), ...(hidden ? { flags: EPHEMERAL } : {}), allowed_mentions: { parse: [] } },
  });
  if (i.type !== COMMAND) return message(`crkb cannot answer interactions of type ${i.type}.`, true);
  try {
    return message(command(kb, name, str, publicUrl.replace(/\/+$/, '')));
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    // mistakes are shown to the asker only
    return message(errorText(e, 'markdown'), true);
  }
}

/** A lookup's answer in Markdown, chat-sized, with a link to its page (once: a cut answer already holds it). */
function linkedLookup(kb: KnowledgeBase, e: EditionInfo, a: LookupAnswer, url: string): string {
  const link = `[Read it on crkb](<${url}>)`;
  const body = formatLookup(a, 'markdown', () => [], {
    examples: false,
    fullUrl: url,
    limit: CHAT_LIMIT - link.length - 1,
    newerKnown: kb.newerKnownFor(e),
  });
  // a cut answer already holds the link to the rest (before the line on newer rules, when there is one)
  return body.includes(`(<${url}>)`) ? body : `${body}\n${link}`;
}

function command(kb: KnowledgeBase, name: string, str: (n: string) => string | undefined, base: string): string {
  const required = (n: string): string => requiredArg(str(n), n, 'option').trim();
  const edition = (arg = 'edition') => kb.resolveEdition(str(arg), 'cr', arg).edition;
  const editionParam = (e: EditionInfo) => (str('edition') ? `?edition=${e.effectiveDate}` : '');
  switch (name) {
    case 'cr':
    case 'define': {
      const q = required(name === 'cr' ? 'number' : 'term');
      const e = edition();
      const a = kb.lookup(e, q);
      if (name === 'define' && (a.glossary.length === 0 || a.kind === 'fuzzy')) kb.glossaryTermOrThrow(e, q);
      const first = a.rules[0];
      return linkedLookup(
        kb,
        e,
        a,
        first ? `${base}/cr/${e.effectiveDate}/${first.number}` : `${base}/search?q=${encodeURIComponent(q)}&edition=${e.effectiveDate}`,
      );
    }
    case 'mtr':
    case 'ipg':
    case 'jar': {
      const q = required('query');
      const e = kb.resolveEdition(str('edition'), name, 'edition').edition;
      const a = kb.lookup(e, q);
      const first = a.rules[0];
      return linkedLookup(kb, e, a, first ? `${base}/${name}/${e.effectiveDate}/${encodeURIComponent(first.number)}` : `${base}/${name}/${e.effectiveDate}`);
    }
    case 'search': {
      const q = required('query');
      const e = edition();
      const hits = kb.search(e.id, q, { limit: 5, ...snippetStyle('markdown') });
      const url = `${base}/search?q=${encodeURIComponent(q)}&edition=${e.effectiveDate}`;
      const lines = [...searchLines(hits, q, e.effectiveDate, 'markdown'), editionLine(e.effectiveDate, 'markdown')];
      return capLines([...lines, `[All results](<${url}>)`], CHAT_LIMIT, `[… all results](<${url}>)`);
    }
    case 'diff': {
      const from = kb.resolveEdition(required('from'), 'cr', 'from').edition;
      const to = kb.resolveEdition(required('to'), 'cr', 'to').edition;
      const section = scopeArg(str('section'));
      const d = kb.diff(from, to, { ...(section ? { section } : {}), rulesOnly: true, segments: false });
      const url = `${base}/diff/${from.effectiveDate}/${to.effectiveDate}${section ? `?section=${section}` : ''}`;
      const lines = [`**${from.effectiveDate} → ${to.effectiveDate}**${section ? ` (${section})` : ''}: ${d.changes.length} changed rules`];
      for (const c of d.changes) lines.push(diffLine(c, 'markdown', 120));
      return capLines([...lines, `[The whole diff](<${url}>)`], CHAT_LIMIT, `[… the whole diff](<${url}>)`);
    }
    case 'history': {
      const n = ruleNumberArg(required('number'));
      const e = currentPlace(kb, n, edition()).edition;
      const h = kb.history(e, n)!;
      const url = `${base}/history/${n}${editionParam(e)}`;
      const lines = [`**${n}**: ${historySummary(h)}`];
      for (const s of h.steps) if (s.change !== 'unchanged') lines.push(historyStepLine(s, 'markdown'));
      return capLines([...lines, `[Full history](<${url}>)`], CHAT_LIMIT, `[… full history](<${url}>)`);
    }
    default:
      throw new QueryError('BAD_INPUT', `unknown command "/${name.slice(0, 20)}"`, { argument: 'command' });
  }
}

/** Up to 25 choices for the option being typed: rule numbers, glossary terms or editions. */
function autocomplete(
  kb: KnowledgeBase,
  name: string,
  opts: Map<string, { focused?: boolean; value?: unknown }>,
  str: (n: string) => string | undefined,
): Array<{ name: string; value: string }> {
  const focused = [...opts.entries()].find(([, o]) => o.focused)?.[0];
  if (!focused) return [];
  const typed = (str(focused) ?? '').trim().toLowerCase();
  if (focused === 'edition' || focused === 'from' || focused === 'to') {
    return kb
      .officialEditions('cr')
      .reverse()
      .filter((e) => typed === '' || e.effectiveDate.startsWith(typed) || (e.setCode ?? '').toLowerCase().startsWith(typed))
      .slice(0, 25)
      .map((e) => ({ name: clip(`${e.effectiveDate}${e.setCode ? ` ${e.setCode}` : ''}${e.setName ? ` (${e.setName})` : ''}`, 100), value: e.effectiveDate }));
  }
  // the edition chosen so far, if it reads; else the latest
  let edition: EditionInfo;
  try {
    edition = kb.resolveEdition(str('edition'), 'cr').edition;
  } catch {
    edition = kb.resolveEdition(null, 'cr').edition;
  }
  if (name === 'define' || (name === 'cr' && /^[a-z]/.test(typed))) {
    const terms = [...kb.glossary(edition.id).map((g) => g.term), ...kb.keywords(edition.id).map((k) => k.name)];
    const unique = [...new Set(terms)];
    const starts = unique.filter((t) => t.toLowerCase().startsWith(typed));
    const inside = unique.filter((t) => !t.toLowerCase().startsWith(typed) && t.toLowerCase().includes(typed));
    let out = [...starts, ...inside];
    if (out.length === 0 && typed.length >= 3) out = closestTerms(typed, unique, 10, 3).map((s) => s.value);
    return out.slice(0, 25).map((t) => ({ name: clip(t, 100), value: clip(t, 100) }));
  }
  const q = typed.replace(PREFIX_RE, '');
  const numbers = kb.numbers(edition.id);
  const matches = q === '' ? numbers.filter((n) => numberLevel(n) === 'section') : numbers.filter((n) => n.startsWith(q));
  return matches.slice(0, 25).map((n) => ({ name: clip(`${n} ${kb.rule(edition.id, n)!.text}`, 100), value: n }));
}
