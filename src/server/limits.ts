import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';
import { createComplexityRule, type ComplexityEstimator } from 'graphql-query-complexity';
import {
  GraphQLError,
  Kind,
  TypeInfo,
  ValidationContext,
  getNullableType,
  getOperationAST,
  isEnumType,
  visit,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type DocumentNode,
} from 'graphql';

/** Limits of one GraphQL operation. */
export interface QueryLimits {
  /** Deepest field nesting (fragments flattened; inside `__schema` not counted: the cost prices introspection). */
  maxDepth: number;
  /** Work units (see FIELD_COST); the default budget is about 100 ms of work on this archive. */
  maxCost: number;
  /** Aliases in the operation, fragments included, `__typename` too. */
  maxAliases: number;
  /** Tokens of the document (caps parser work). */
  maxTokens: number;
  /** Directives in the operation, fragments included. */
  maxDirectives: number;
  /** Selections the cost analysis walks (fragments are walked where they are spread): bounds its work. */
  maxNodes: number;
  /** Longest answer, in bytes of JSON (the largest real answers measured are about 300 KB: a 500-change diff with word segments). */
  maxAnswerBytes: number;
}

/** Default limits of a GraphQL operation. */
export const DEFAULT_LIMITS: QueryLimits = {
  maxDepth: 10,
  maxCost: 1000,
  maxAliases: 30,
  maxTokens: 2000,
  maxDirectives: 50,
  maxNodes: 5000,
  maxAnswerBytes: 2 * 1024 * 1024,
};

/**
 * What each field costs each time it is resolved, in work units of about 0.1 ms of CPU (set from
 * bench/fieldCost on the full archive: search ~5 ms in an old edition, diff ~20-40 ms fresh, history
 * ~2.5 ms, lookup ~1.5 ms; fields read from the in-memory snapshot cost ~0 and are counted at
 * FIELD_FLOOR), and how many items a list returns (`list`; -1: the page of the connection above: its
 * `first` multiplies everything selected in the connection, pageInfo too, a small overcount). Every field of the schema is listed (a test compares the two), so a new
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
  'Edition.newerKnown': { cost: 0 },
  'KnownEdition.effectiveDate': { cost: 0 },
  'KnownEdition.setCode': { cost: 0 },
  'KnownEdition.setName': { cost: 0 },
  'KnownEdition.missing': { cost: 0 },
  'KnownEdition.how': { cost: 0 },
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
  'Rule.duplicates': { cost: 0, list: 2 },
  // a tournament document's unit: its text split, its parts one indexed read
  'Rule.unit': { cost: 1 },
  'Unit.title': { cost: 0 },
  'Unit.penalty': { cost: 0 },
  'Unit.body': { cost: 0 },
  'Unit.parts': { cost: 0, list: 6 },
  'UnitPart.name': { cost: 0 },
  'UnitPart.text': { cost: 0 },
  'CrossReference.targetNumber': { cost: 0 },
  'CrossReference.family': { cost: 0 },
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
  'Keyword.id': { cost: 0 },
  'Keyword.kind': { cost: 0 },
  'Keyword.name': { cost: 0 },
  'Keyword.number': { cost: 0 },
  'Keyword.rule': { cost: 0 },
  'PageInfo.hasNextPage': { cost: 0 },
  'PageInfo.endCursor': { cost: 0 },
  'PageInfo.hasPreviousPage': { cost: 0 },
  'PageInfo.startCursor': { cost: 0 },
  'Edition.id': { cost: 0 },
  'Rule.id': { cost: 0 },
  'GlossaryEntry.id': { cost: 0 },
  'HistoryStep.id': { cost: 0 },
  'History.id': { cost: 0 },
  'GlossaryHistory.id': { cost: 0 },
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
  'SearchHit.correctedQuery': { cost: 0 },
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
  'HistoryStep.subrules': { cost: 0 },
  'SubruleChanges.added': { cost: 0, list: 20 },
  'SubruleChanges.removed': { cost: 0, list: 20 },
  'SubruleChanges.renumbered': { cost: 0, list: 20 },
  'SubruleChanges.changed': { cost: 0, list: 20 },
  'SubruleAdded.number': { cost: 0 },
  'SubruleAdded.from': { cost: 0 },
  'SubruleRemoved.number': { cost: 0 },
  'SubruleRemoved.to': { cost: 0 },
  'SubruleRenumbered.from': { cost: 0 },
  'SubruleRenumbered.to': { cost: 0 },
  'SubruleChanged.number': { cost: 0 },
  'SubruleChanged.textChange': { cost: 0 },
  'SubruleChanged.examplesChanged': { cost: 0 },
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
  'LookupResult.duplicated': { cost: 0 },
  'LookupExample.index': { cost: 0 },
  'LookupExample.text': { cost: 0 },
  'Query.citations': { cost: 40 },
  'Citation.cited': { cost: 0 },
  'Citation.family': { cost: 0 },
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

/**
 * The least a field costs each time it is resolved, introspection and `__typename` included (about
 * 1 µs: what graphql-js spends resolving and serializing a field, measured by bench/fieldCost). It
 * bounds how many fields an answer can have: 1,000 units is at most 100,000 fields.
 */
export const FIELD_FLOOR = 0.01;

/** Connection fields: the most `first` may ask for (each `first` argument's description says so). */
export const PAGE_MAX: Record<string, number> = { 'Query.rules': 500, 'Query.search': 100, 'Query.diff': 500 };

const avg = (total: number, n: number): number => Math.max(1, Math.ceil(total / Math.max(1, n)));

/**
 * How many items each introspection list has, from the schema itself: the number of types and
 * directives, and for the lists of a type, a field or a directive their average over all of them
 * (at least 1), so the standard introspection query, which reads every type, is priced at what it
 * returns or more (3,271 fields for cost 184: a list averaging under one item counts one).
 */
function introspectionSizes(schema: GraphQLSchema): Record<string, number> {
  const types = Object.values(schema.getTypeMap());
  const directives = schema.getDirectives();
  const fields = types.flatMap((t) => (isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()) : []));
  const perType = (f: (t: (typeof types)[number]) => number) =>
    avg(
      types.reduce((n, t) => n + f(t), 0),
      types.length,
    );
  return {
    '__Schema.types': types.length,
    '__Schema.directives': directives.length,
    '__Type.fields': perType((t) => (isObjectType(t) || isInterfaceType(t) ? Object.keys(t.getFields()).length : 0)),
    '__Type.inputFields': perType((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0)),
    '__Type.enumValues': perType((t) => (isEnumType(t) ? t.getValues().length : 0)),
    '__Type.interfaces': perType((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0)),
    '__Type.possibleTypes': perType((t) => (isUnionType(t) || isInterfaceType(t) ? schema.getPossibleTypes(t).length : 0)),
    '__Field.args': avg(
      fields.reduce((n, f) => n + f.args.length, 0),
      fields.length,
    ),
    '__Directive.args': avg(
      directives.reduce((n, d) => n + d.args.length, 0),
      directives.length,
    ),
    '__Directive.locations': avg(
      directives.reduce((n, d) => n + d.locations.length, 0),
      directives.length,
    ),
  };
}

/** A request error: no data, HTTP 400 under application/graphql-response+json, 200 under application/json. */
function requestError(code: 'TOO_COMPLEX' | 'BAD_USER_INPUT', message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra, http: { status: 400, spec: true } } });
}

/**
 * The cost estimator (graphql-query-complexity): a field costs its FIELD_COST (at least FIELD_FLOOR)
 * plus what is selected inside it times the items of its list (FIELD_COST's `list`, a connection's
 * `first`, an introspection list's size from the schema). A `first` outside 0..PAGE_MAX is a
 * BAD_USER_INPUT error naming the argument and the maximum.
 */
function costEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const sizes = introspectionSizes(schema);
  return ({ type, field, args, childComplexity }) => {
    const key = `${type.name}.${field.name}`;
    const fc = FIELD_COST[key];
    const own = Math.max(fc?.cost ?? 0, FIELD_FLOOR);
    const pageMax = PAGE_MAX[key];
    if (pageMax !== undefined) {
      const dflt = field.args.find((a) => a.name === 'first')?.defaultValue;
      const first = (args.first ?? dflt ?? 0) as number;
      if (first < 0 || first > pageMax) {
        throw requestError('BAD_USER_INPUT', `\`first\` of ${field.name} must be between 0 and ${pageMax}, not ${first}`, {
          argument: 'first',
          maximum: pageMax,
        });
      }
      return own + first * childComplexity;
    }
    const items = fc?.list !== undefined ? Math.max(1, fc.list) : (sizes[key] ?? 1);
    // a list of scalars: each item is a value in the answer
    const inner = childComplexity > 0 ? childComplexity : isListType(getNullableType(field.type)) ? FIELD_FLOOR : 0;
    return own + items * inner;
  };
}

/** Where the cost is kept for the rest of the request (the context of the resolvers has it). */
interface Costed {
  cost?: number;
}

/** Picks how to execute an operation of a given cost (undefined: yoga's executor, in this thread). */
export type ExecutorChoice = (cost: number, args: ExecutionArgs) => ((args: ExecutionArgs) => unknown) | undefined;

/**
 * Whether a variable can change the document's cost: one given to a `first` argument (a page's size) or to a
 * directive (`@include(if: $v)`, `@skip`). Nothing else a variable sets is read by the cost estimator.
 */
function costReadsVariables(document: DocumentNode): boolean {
  let reads = false;
  visit(document, {
    Argument(node, _key, _parent, _path, ancestors) {
      const inDirective = ancestors.some((a) => 'kind' in a && a.kind === Kind.DIRECTIVE);
      if (!(inDirective || node.name.value === 'first')) return false;
      visit(node.value, { Variable: () => void (reads = true) });
      return false;
    },
  });
  return reads;
}

/** What judging an operation's cost decided: an answer that stops it (its errors), the executor to run it with, or nothing (run as it is). */
export type CostVerdict = ExecutionResult | ((args: ExecutionArgs) => unknown) | undefined;

/**
 * Judges each operation's cost with the request's variables before it runs (graphql-query-complexity,
 * its walk bounded by maxNodes): over maxCost it is refused (TOO_COMPLEX), the cost is kept on the
 * context (`cost`), and `choose` may pick the executor for it (e.g. costly operations on a worker thread).
 */
export function costJudge(schema: GraphQLSchema, limits: QueryLimits, choose?: ExecutorChoice): (args: ExecutionArgs) => CostVerdict {
  const estimators = [costEstimator(schema)];
  // The cost of an operation no variable can change, by parsed document (yoga's parser cache hands the same
  // object for the same text) and operation name: the walk is most of a cheap request's own work.
  const constantCosts = new WeakMap<DocumentNode, Map<string, number>>();
  return (args) => {
    const document = args.document;
    const opName = args.operationName ?? '';
    const known = constantCosts.get(document)?.get(opName);
    if (known !== undefined) {
      // variables that do not fit their types are the executor's BAD_USER_INPUT, as they are here
      (args.contextValue as Costed).cost = known;
      return choose?.(known, args);
    }
    const op = getOperationAST(document, opName || null);
    // several operations and none named: execution says so
    if (!op) return undefined;
    // graphql-query-complexity's visitor entered on the one operation (getComplexity would first walk
    // the whole document with a TypeInfo only to reach the operations)
    const errors: GraphQLError[] = [];
    const context = new ValidationContext(schema, document, new TypeInfo(schema), (e) => errors.push(e));
    const analysis = createComplexityRule({
      maximumComplexity: Infinity,
      estimators,
      variables: (args.variableValues ?? {}) as Record<string, unknown>,
      maxQueryNodes: limits.maxNodes,
    })(context);
    try {
      analysis.onOperationDefinitionEnter(op);
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      if (typeof e.extensions.code === 'string') return { errors: [e] };
      if (/maximum allowed number of nodes/.test(e.message)) {
        return {
          errors: [
            requestError('TOO_COMPLEX', `the operation has more than ${limits.maxNodes} selections once its fragments are spread`, {
              nodes: limits.maxNodes,
            }),
          ],
        };
      }
      errors.push(e);
    }
    // variables that do not fit their types, a directive's missing argument: nothing runs without a cost
    if (errors.length > 0) {
      return {
        errors: errors.map(
          (e) => new GraphQLError(e.message, { nodes: e.nodes ?? null, extensions: { code: 'BAD_USER_INPUT', http: { status: 400, spec: true } } }),
        ),
      };
    }
    const cost = analysis.complexity;
    (args.contextValue as Costed).cost = cost;
    if (!costReadsVariables(document)) {
      const byOp = constantCosts.get(document) ?? new Map<string, number>();
      constantCosts.set(document, byOp.set(opName, cost));
    }
    if (cost > limits.maxCost) {
      const shown = Math.ceil(cost);
      return {
        errors: [
          requestError('TOO_COMPLEX', `query cost ${shown} exceeds the limit of ${limits.maxCost}; ask for fewer items or cheaper fields`, { cost: shown }),
        ],
      };
    }
    return choose?.(cost, args);
  };
}

/**
 * graphql-armor's envelop plugins for depth (fragments flattened, `__schema` exempt: the cost
 * prices introspection), aliases (every one, `__typename` too), tokens and directives; a limit
 * exceeded is a validation error with code TOO_COMPLEX.
 */
export function armorPlugins(limits: QueryLimits): Plugin[] {
  const report = [
    (ctx: { reportError(e: GraphQLError): void } | null, e: GraphQLError) =>
      ctx?.reportError(new GraphQLError(e.message.replace(/^Syntax Error: /, ''), { extensions: { code: 'TOO_COMPLEX' } })),
  ];
  const onRejection = { onReject: report, propagateOnRejection: false };
  // envelop's plugins, which yoga runs: their type differs from yoga's Plugin in optional hooks only
  return new EnvelopArmor({
    blockFieldSuggestion: { enabled: false },
    costLimit: { enabled: false },
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...onRejection },
    maxAliases: { n: limits.maxAliases, allowList: [], ...onRejection },
    maxDirectives: { n: limits.maxDirectives, ...onRejection },
    // the parser has no validation context: its error is thrown (a syntax error)
    maxTokens: { n: limits.maxTokens },
  }).protect().plugins as unknown as Plugin[];
}
