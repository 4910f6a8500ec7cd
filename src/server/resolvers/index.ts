import type { Resolvers } from '../generated/schema.js';
import { CitationReport } from './CitationReport.js';
import { CrossReference } from './CrossReference.js';
import { Edition } from './Edition.js';
import { GlossaryEntry } from './GlossaryEntry.js';
import { DiffChange } from './DiffChange.js';
import { GlossaryHistory } from './GlossaryHistory.js';
import { History } from './History.js';
import { HistoryStep } from './HistoryStep.js';
import { Keyword } from './Keyword.js';
import { LookupResult } from './LookupResult.js';
import { Query } from './Query.js';
import { Rule } from './Rule.js';

/** Every resolver, by type name. */
export const resolvers = {
  Query,
  Rule,
  CrossReference,
  GlossaryEntry,
  Edition,
  Keyword,
  History,
  GlossaryHistory,
  HistoryStep,
  DiffChange,
  LookupResult,
  CitationReport,
} satisfies Resolvers;
