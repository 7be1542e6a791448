/**
 * Linear's query complexity, as its rate-limiting documentation describes it: each property costs 0.1
 * point, each object 1 point, and a connection multiplies the cost of what it selects by its page size
 * (`first`/`last`, default 50); the total is rounded up. One query may cost at most 10,000 points.
 */
import {
  getNamedType,
  isLeafType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export const MAX_QUERY_COMPLEXITY = 10_000;
const DEFAULT_PAGE = 50;

export function queryComplexity(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}, operationName?: string): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
  if (!op) return 0;
  const root = op.operation === 'mutation' ? schema.getMutationType() : op.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!root) return 0;

  const selectionCost = (type: GraphQLObjectType, set: SelectionSetNode, seen: Set<string>): number => {
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name === '__typename') continue;
        const def: GraphQLField<unknown, unknown> | undefined = type.getFields()[name];
        if (!def) continue;
        const named = getNamedType(def.type);
        if (isLeafType(named) || !sel.selectionSet || !isObjectType(named)) {
          total += 0.1;
          continue;
        }
        let inner = selectionCost(named, sel.selectionSet, seen);
        if (named.name.endsWith('Connection')) {
          const arg = (n: string) => {
            const a = sel.arguments?.find((x) => x.name.value === n);
            return a ? valueFromASTUntyped(a.value, variables) : undefined;
          };
          const size = (arg('first') ?? arg('last') ?? DEFAULT_PAGE) as number;
          inner *= typeof size === 'number' ? size : DEFAULT_PAGE;
        }
        total += 1 + inner;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += selectionCost(type, sel.selectionSet, seen);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(sel.name.value);
        if (!f || seen.has(f.name.value)) continue;
        total += selectionCost(type, f.selectionSet, new Set([...seen, f.name.value]));
      }
    }
    return total;
  };
  return Math.ceil(selectionCost(root, op.selectionSet, new Set()));
}
