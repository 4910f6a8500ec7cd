export { parseQuery, compareNumbers, numberKey, MAX_QUERY_LENGTH } from './parseQuery.js';
export type { ParsedQuery } from './parseQuery.js';
export { editDistance, closestTerms, nearestNumbers, typoBudget } from './suggest.js';
export type { Suggestion } from './suggest.js';
export { answerLookup } from './answerLookup.js';
export type { LookupAnswer, LookupKind } from './answerLookup.js';
export { formatLookup, lookupJson, capLines, ruleLabel, CHAT_LIMIT } from './formatLookup.js';
export type { LookupFormat, FormatOptions } from './formatLookup.js';
