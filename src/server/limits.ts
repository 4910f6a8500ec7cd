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

/** Depth and cost limits of one GraphQL operation. */
export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
}

/** How many items a list field may return when nothing says otherwise; connections use `first`. */
const LIST_SIZE: Record<string, number> = {
  editions: 300,
  glossaryTerms: 1000,
  keywords: 300,
  children: 30,
  references: 10,
  referencedBy: 20,
  referencedByGlossary: 5,
  ancestors: 4,
  steps: 300,
  parts: 10,
  abilityWords: 50,
  suggestions: 1,
  glossary: 1,
};
const CONNECTION_DEFAULT: Record<string, number> = { rules: 100, search: 20, diff: 100 };
const MAX_FIRST = 500;

function intArg(field: FieldNode, name: string): number | null {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (!arg) return null;
  const v: ValueNode = arg.value;
  // a variable may be anything: count the cap
  if (v.kind === Kind.VARIABLE) return MAX_FIRST;
  if (v.kind === Kind.INT) return Math.min(Number(v.value), MAX_FIRST);
  return null;
}

function multiplier(field: FieldNode): number {
  const name = field.name.value;
  if (name in CONNECTION_DEFAULT) return intArg(field, 'first') ?? CONNECTION_DEFAULT[name]!;
  return LIST_SIZE[name] ?? 1;
}

/**
 * Depth (introspection fields excepted) and cost of an operation's selection:
 * each field costs the product of the list sizes above it. Pure.
 */
export function measureSelection(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): { depth: number; cost: number } {
  const walk = (s: SelectionSetNode, mult: number, seen: ReadonlySet<string>): { depth: number; cost: number } => {
    let depth = 0;
    let cost = 0;
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        const m = mult * multiplier(sel);
        cost += m;
        if (sel.selectionSet) {
          const inner = walk(sel.selectionSet, m, seen);
          depth = Math.max(depth, inner.depth + 1);
          cost += inner.cost;
        } else depth = Math.max(depth, 1);
      } else {
        let inner: SelectionSetNode | undefined;
        let nextSeen = seen;
        if (sel.kind === Kind.INLINE_FRAGMENT) inner = sel.selectionSet;
        else if (!seen.has(sel.name.value)) {
          inner = fragments.get(sel.name.value)?.selectionSet;
          nextSeen = new Set([...seen, sel.name.value]);
        }
        if (inner) {
          const r = walk(inner, mult, nextSeen);
          depth = Math.max(depth, r.depth);
          cost += r.cost;
        }
      }
    }
    return { depth, cost };
  };
  return walk(set, 1, new Set());
}

/** A validation rule rejecting operations deeper or costlier than the limits, with extensions.code TOO_COMPLEX. */
export function limitsRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const doc = context.getDocument();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    return {
      OperationDefinition(op) {
        const { depth, cost } = measureSelection(op.selectionSet, fragments);
        // spec: false keeps the 400 for application/json clients too (yoga downgrades spec validation errors to 200)
        const ext = { code: 'TOO_COMPLEX', http: { status: 400, spec: false } };
        if (depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(`query depth ${depth} exceeds the limit of ${limits.maxDepth}`, { nodes: [op], extensions: { ...ext, depth } }),
          );
        } else if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(`query cost ${cost} exceeds the limit of ${limits.maxCost}; ask for fewer items`, {
              nodes: [op],
              extensions: { ...ext, cost },
            }),
          );
        }
      },
    };
  };
}

/** Longest search text accepted, in characters. */
export const MAX_SEARCH_LENGTH = 500;
