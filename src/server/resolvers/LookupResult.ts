import type { LookupAnswer } from '../../query/answerLookup.js';

/** Resolvers of LookupResult: every field reads the answer as is. */
export const LookupResult = {
  edition: (a: LookupAnswer) => a.edition,
};
