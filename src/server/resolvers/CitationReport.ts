import { citationsMarkdown } from '../../query/chatText.js';
import type { CitationReport as Report } from '../../query/checkCitations.js';

/** Resolvers of CitationReport: the report as is, and its Markdown table. */
export const CitationReport = {
  markdown: (r: Report) => citationsMarkdown(r),
};
