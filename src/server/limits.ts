import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';

/** Limits of one GraphQL operation. */
export interface QueryLimits {
  maxDepth: number;
  /** Work units (see FIELD_COST); the default budget is about 100 ms of work on this archive. */
  maxCost: number;
  maxAliases: number;
}

/**
 * What each field costs, per item, in work units of about 0.1 ms of CPU (set from bench/fieldCost on
 * the full archive: search ~5 ms in an old edition, diff ~20-40 ms fresh, history ~2.5 ms, lookup
 * ~1.5 ms; fields read from the in-memory snapshot cost ~0), and how many items a list returns when
 * no `first` says otherwise. Every field of the schema is listed (a test compares the two), so a new
 * field cannot be left out. The budget (DEFAULT_LIMITS.maxCost 1,000) is about 100 ms of work.
 */
export const FIELD_COST: Record<string, { cost: number; list?: number }> = {
  'Query.editions': { cost: 1, list: 200 },
  'Query.edition': { cost: 1 },
  'Query.rule': { cost: 1 },
  'Query.rules': { cost: 1 },
  'Query.search': { cost: 50 },
  'Query.glossary': { cost: 1 },
  'Query.glossaryTerms': { cost: 10, list: 700 },
  'Query.keywords': { cost: 15, list: 250 },
  'Query.diff': { cost: 400 },
  'Query.history': { cost: 25 },
  'Query.lookup': { cost: 15 },
  'Query.glossaryHistory': { cost: 200 },
  'Edition.effectiveDate': { cost: 0 },
  'Edition.family': { cost: 0 },
  'Edition.official': { cost: 0 },
  'Edition.label': { cost: 0 },
  'Edition.setCode': { cost: 0 },
  'Edition.setName': { cost: 0 },
  'Edition.title': { cost: 0 },
  'Edition.ruleCount': { cost: 0 },
  'Edition.parts': { cost: 0, list: 10 },
  'Edition.abilityWords': { cost: 0, list: 60 },
  'Edition.danglingReferences': { cost: 100, list: 10 },
  'Edition.staleReferences': { cost: 100, list: 10 },
  'EditionReference.source': { cost: 0 },
  'EditionReference.at': { cost: 0 },
  'EditionReference.target': { cost: 0 },
  'EditionReference.kind': { cost: 0 },
  'EditionReference.mention': { cost: 0 },
  'EditionReference.cited': { cost: 0 },
  'EditionReference.title': { cost: 0 },
  'GlossaryHistory.terms': { cost: 0, list: 3 },
  'GlossaryHistory.first': { cost: 0 },
  'GlossaryHistory.last': { cost: 0 },
  'GlossaryHistory.steps': { cost: 0, list: 120 },
  'Part.number': { cost: 0 },
  'Part.title': { cost: 0 },
  'Rule.number': { cost: 0 },
  'Rule.kind': { cost: 0 },
  'Rule.text': { cost: 0 },
  'Rule.examples': { cost: 0 },
  'Rule.notes': { cost: 0 },
  'Rule.parent': { cost: 0 },
  'Rule.children': { cost: 1, list: 30 },
  'Rule.ancestors': { cost: 0, list: 4 },
  'Rule.edition': { cost: 0 },
  'Rule.position': { cost: 0 },
  'Rule.references': { cost: 0, list: 10 },
  'Rule.referencedBy': { cost: 1, list: 20 },
  'Rule.referencedByGlossary': { cost: 1, list: 5 },
  'Rule.lineageId': { cost: 0 },
  'Rule.history': { cost: 25 },
  'CrossReference.targetNumber': { cost: 0 },
  'CrossReference.kind': { cost: 0 },
  'CrossReference.target': { cost: 0 },
  'CrossReference.dangling': { cost: 0 },
  'CrossReference.source': { cost: 0 },
  'CrossReference.exampleIndex': { cost: 0 },
  'CrossReference.start': { cost: 0 },
  'CrossReference.end': { cost: 0 },
  'GlossaryEntry.term': { cost: 0 },
  'GlossaryEntry.definition': { cost: 0 },
  'GlossaryEntry.references': { cost: 0, list: 5 },
  'GlossaryEntry.edition': { cost: 0 },
  'Keyword.kind': { cost: 0 },
  'Keyword.name': { cost: 0 },
  'Keyword.number': { cost: 0 },
  'Keyword.rule': { cost: 0 },
  'PageInfo.hasNextPage': { cost: 0 },
  'PageInfo.endCursor': { cost: 0 },
  'RuleConnection.edges': { cost: 0, list: -1 },
  'RuleConnection.nodes': { cost: 0, list: -1 },
  'RuleConnection.pageInfo': { cost: 0 },
  'RuleConnection.edition': { cost: 0 },
  'RuleEdge.cursor': { cost: 0 },
  'RuleEdge.node': { cost: 0 },
  'SearchHit.kind': { cost: 0 },
  'SearchHit.score': { cost: 0 },
  'SearchHit.rule': { cost: 0 },
  'SearchHit.exampleIndex': { cost: 0 },
  'SearchHit.glossary': { cost: 0 },
  'SearchHit.highlighted': { cost: 2 },
  'SearchHit.snippet': { cost: 2 },
  'SearchEdge.cursor': { cost: 0 },
  'SearchEdge.node': { cost: 0 },
  'SearchConnection.edges': { cost: 0, list: -1 },
  'SearchConnection.nodes': { cost: 0, list: -1 },
  'SearchConnection.pageInfo': { cost: 0 },
  'SearchConnection.edition': { cost: 0 },
  'DiffSegment.op': { cost: 0 },
  'DiffSegment.text': { cost: 0 },
  'RuleSide.number': { cost: 0 },
  'RuleSide.text': { cost: 0 },
  'DiffChange.before': { cost: 0 },
  'DiffChange.after': { cost: 0 },
  'DiffChange.renumbered': { cost: 0 },
  'DiffChange.textChange': { cost: 0 },
  'DiffChange.segments': { cost: 0, list: 20 },
  'DiffCounts.added': { cost: 0 },
  'DiffCounts.removed': { cost: 0 },
  'DiffCounts.renumbered': { cost: 0 },
  'DiffCounts.references': { cost: 0 },
  'DiffCounts.substantive': { cost: 0 },
  'DiffEdge.cursor': { cost: 0 },
  'DiffEdge.node': { cost: 0 },
  'DiffConnection.from': { cost: 0 },
  'DiffConnection.to': { cost: 0 },
  'DiffConnection.counts': { cost: 0 },
  'DiffConnection.edges': { cost: 0, list: -1 },
  'DiffConnection.nodes': { cost: 0, list: -1 },
  'DiffConnection.pageInfo': { cost: 0 },
  'HistoryStep.edition': { cost: 0 },
  'HistoryStep.number': { cost: 0 },
  'HistoryStep.text': { cost: 0 },
  'HistoryStep.renumbered': { cost: 0 },
  'HistoryStep.textChange': { cost: 0 },
  'HistoryStep.segments': { cost: 0, list: 20 },
  'History.lineageId': { cost: 0 },
  'History.steps': { cost: 0, list: 120 },
  'LookupResult.query': { cost: 0 },
  'LookupResult.kind': { cost: 0 },
  'LookupResult.matched': { cost: 0 },
  'LookupResult.edition': { cost: 0 },
  'LookupResult.rules': { cost: 0, list: 30 },
  'LookupResult.glossary': { cost: 0, list: 2 },
  'LookupResult.suggestions': { cost: 0, list: 5 },
  'LookupResult.example': { cost: 0 },
  'LookupExample.index': { cost: 0 },
  'LookupExample.text': { cost: 0 },
  'Query.citations': { cost: 40 },
  'Citation.cited': { cost: 0 },
  'Citation.title': { cost: 0 },
  'Citation.then': { cost: 0 },
  'Citation.status': { cost: 0 },
  'Citation.now': { cost: 0 },
  'Citation.goneSince': { cost: 0 },
  'Citation.textChange': { cost: 0 },
  'Citation.titleMatches': { cost: 0 },
  'CitationReport.asOf': { cost: 0 },
  'CitationReport.to': { cost: 0 },
  'CitationReport.citations': { cost: 0, list: 20 },
  'CitationReport.markdown': { cost: 1 },
};

/** Default `first` of each connection field (list -1 above: the page size multiplies what is below). */
const CONNECTION_DEFAULT: Record<string, number> = { 'Query.rules': 100, 'Query.search': 20, 'Query.diff': 100 };
const MAX_FIRST = 500;

function firstOf(field: FieldNode, dflt: number): number {
  const arg = field.arguments?.find((a) => a.name.value === 'first');
  if (!arg) return dflt;
  const v: ValueNode = arg.value;
  // a variable may be anything: count the cap
  if (v.kind === Kind.INT) return Math.min(Math.max(0, Number(v.value)), MAX_FIRST);
  return MAX_FIRST;
}

/**
 * Depth (introspection fields excepted), cost and aliases of an operation's selection: a field
 * costs its FIELD_COST times the items of the lists above it. `typeOf` names the type a field of a
 * type returns (from the schema). Pure.
 */
export function measureSelection(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  rootType: string,
  typeOf: (type: string, field: string) => string | null,
): { depth: number; cost: number; aliases: number } {
  let aliases = 0;
  const walk = (s: SelectionSetNode, type: string, mult: number, pageSize: number, seen: ReadonlySet<string>): { depth: number; cost: number } => {
    let depth = 0;
    let cost = 0;
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name.startsWith('__')) continue;
        if (sel.alias) aliases++;
        const key = `${type}.${name}`;
        const fc = FIELD_COST[key] ?? { cost: 1 };
        const page = key in CONNECTION_DEFAULT ? firstOf(sel, CONNECTION_DEFAULT[key]!) : pageSize;
        cost += mult * Math.max(fc.cost, 0.01);
        const items = fc.list === -1 ? pageSize : (fc.list ?? 1);
        const inner = sel.selectionSet ? walk(sel.selectionSet, typeOf(type, name) ?? '', mult * items, page, seen) : { depth: 0, cost: 0 };
        depth = Math.max(depth, inner.depth + 1);
        cost += inner.cost;
      } else {
        let inner: SelectionSetNode | undefined;
        let nextSeen = seen;
        if (sel.kind === Kind.INLINE_FRAGMENT) inner = sel.selectionSet;
        else if (!seen.has(sel.name.value)) {
          inner = fragments.get(sel.name.value)?.selectionSet;
          nextSeen = new Set([...seen, sel.name.value]);
        }
        if (inner) {
          const r = walk(inner, type, mult, pageSize, nextSeen);
          depth = Math.max(depth, r.depth);
          cost += r.cost;
        }
      }
    }
    return { depth, cost };
  };
  const r = walk(set, rootType, 1, 1, new Set());
  return { depth: r.depth, cost: Math.ceil(r.cost), aliases };
}

/** A validation rule rejecting operations deeper, costlier or with more aliases than the limits (TOO_COMPLEX). */
export function limitsRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const doc = context.getDocument();
    const schema = context.getSchema();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const typeOf = (type: string, field: string): string | null => {
      const t = schema.getType(type);
      if (!t || !('getFields' in t)) return null;
      const f = (t.getFields() as Record<string, { type: { toString(): string } }>)[field];
      return f ? f.type.toString().replace(/[[\]!]/g, '') : null;
    };
    return {
      OperationDefinition(op) {
        const root = op.operation === 'query' ? 'Query' : op.operation;
        const { depth, cost, aliases } = measureSelection(op.selectionSet, fragments, root, typeOf);
        const ext = { code: 'TOO_COMPLEX' };
        if (depth > limits.maxDepth) {
          context.reportError(new GraphQLError(`query depth ${depth} exceeds the limit of ${limits.maxDepth}`, { nodes: [op], extensions: { ...ext, depth } }));
        } else if (aliases > limits.maxAliases) {
          context.reportError(new GraphQLError(`${aliases} aliases exceed the limit of ${limits.maxAliases}`, { nodes: [op], extensions: { ...ext, aliases } }));
        } else if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(`query cost ${cost} exceeds the limit of ${limits.maxCost}; ask for fewer items or cheaper fields`, {
              nodes: [op],
              extensions: { ...ext, cost },
            }),
          );
        }
      },
    };
  };
}
