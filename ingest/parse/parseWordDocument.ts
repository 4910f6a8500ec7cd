import { IngestError } from './IngestError.js';
import { isCrText, parseCrText } from './parseCrText.js';
import { checkParsed, type ParsedSource } from './parseSource.js';
import { policyFamilyOf } from './parsePolicy.js';
import { parsePolicyText } from './parsePolicyText.js';

/**
 * Parses the paragraphs of a Word document (.docx or .doc) into the document model. Each paragraph is
 * one published line, so the document reads like the text file Wizards exported from it; line numbers
 * in the result count those lines (a paragraph's breaks are "\n"). Paragraph styles are not read: the table of
 * contents shares the rules' styles ("CR 100.1."), while the text itself is as regular as the .txt's.
 * The decoded text returned is those lines. Throws IngestError naming `source` when the paragraphs hold no Comprehensive Rules.
 */
export function parseWordDocument(source: string, paragraphs: string[], format: 'docx' | 'doc'): ParsedSource {
  // Word's own separators inside a paragraph: vertical tab (a manual line break in .doc), form feed (page break).
  const joined = paragraphs.join('\n');
  const text = /[\v\f]/.test(joined) ? joined.replace(/[\v\f]/g, '\n') : joined;
  if (text.trim() === '') throw new IngestError(source, `empty ${format} document (no text)`);
  if (policyFamilyOf(text) !== null) return parsePolicyText(source, { text, encoding: 'word', lineEndings: [] }, format);
  if (!isCrText(text)) throw new IngestError(source, `no rules found: the ${format} document is not a Comprehensive Rules edition`);
  const doc = { ...parseCrText(text), format };
  checkParsed(source, doc);
  return { decoded: { text, encoding: 'word', lineEndings: [] }, doc };
}
