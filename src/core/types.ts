/**
 * The one document model every parser produces: official text files, scraped
 * pages, Markdown renderings, fragments and the Rulings Summaries all parse to
 * a `ParsedDocument`.
 */

import type { Family } from './families.js';

/** Which family of documents an edition belongs to (the list is in families.ts). */
export type DocumentFamily = Family;

/** The source format a parser recognised. */
export type SourceFormat =
  | 'cr-text' // official Comprehensive Rules text file
  | 'markdown' // a Markdown rendering of (part of) the CR
  | 'fragment' // plain-text run of rules with no header
  | 'html' // a scraped HTML page of (part of) the CR
  | 'docx' // official CR as a Word document (2012 on)
  | 'doc' // official CR as a Word 97 document
  | 'rulings-text' // Magic Rulings Summaries, text release
  | 'rulings-html' // Magic Rulings Summaries, scraped page text
  | 'pdf' // a tournament-policy document (MTR, IPG, JAR) as a PDF
  | 'policy-text' // a tournament-policy document as text (Word's text export, a Usenet post)
  | 'policy-html'; // a tournament-policy document as an HTML rendition

/** The formats read from decoded text (everything but Word documents). */
export type TextFormat = Exclude<SourceFormat, 'docx' | 'doc' | 'pdf'>;

/** What kind of numbered entry a rule node is. */
type RuleKind =
  | 'section' // "100. General": text is the section title
  | 'rule' // "100.1."
  | 'subrule' // "100.1a"
  | 'ruling' // Rulings Summaries "E.12.Ruling.3"
  | 'appendix'; // tournament documents: "Appendix B—Time Limits"

/** A citation split out of a ruling: "[WotC Rules Team 11/10/95]". */
export interface Citation {
  /** Who or what is cited, e.g. "WotC Rules Team", "CompRules". */
  source: string;
  /** ISO date (YYYY-MM-DD) or null when the citation has none. */
  date: string | null;
  /** The citation as published, brackets included. */
  raw: string;
}

/** A "Note - …" paragraph of a Rulings Summaries section: its text as published, without "Note - ". */
export interface RulingNote {
  text: string;
  citations: Citation[];
}

/** One numbered rule at any depth, in document order. */
export interface RuleNode {
  /** "100", "100.1", "100.1a", "E.12.1", "E.12.Ruling.3": never a trailing dot. */
  number: string;
  /** Number of the enclosing rule ("100.1" for "100.1a"); null at the top. */
  parent: string | null;
  kind: RuleKind;
  /** Text as published after decoding; wrapped lines joined. Sections: their title. */
  text: string;
  /** Examples attached to this rule, without the "Example:" prefix. */
  examples: string[];
  /** Citations (Rulings Summaries only). */
  citations?: Citation[];
  /** "Note - …" paragraphs of a Rulings Summaries section, as published (sections only). */
  notes?: RulingNote[];
  /** 1-based line of the rule's first line in the decoded source. */
  line: number;
  /** Tournament documents: the unit's title ("Game Play Error — Missed Trigger"); its text is the body. */
  title?: string;
  /** IPG: the penalty the infraction carries, as published ("Warning", "Game Loss"). */
  penalty?: string | null;
  /** IPG: the infraction's named parts in published order (each part's text is also in `text`). */
  policyParts?: PolicyPart[];
}

/** A named part of an IPG infraction. */
export interface PolicyPart {
  name: 'definition' | 'philosophy' | 'additional-remedy' | 'upgrade' | 'examples' | 'penalty' | 'procedure';
  /** The part's paragraphs as published, "\n" between them (examples are in the unit's `examples`). */
  text: string;
}

/** A numbered part of the rules: "1. Game Concepts". */
export interface PartHeading {
  number: string;
  title: string;
  line: number;
}

/** A glossary term and its definition as published. */
export interface GlossaryEntry {
  term: string;
  /** Definition as published; separate published lines joined with "\n". */
  definition: string;
  line: number;
}

/** A topic in a Rulings Summaries index, pointing at sections. */
export interface IndexEntry {
  topic: string;
  targets: string[];
}

/** A problem found while parsing, with its place in the source. */
export interface ParseWarning {
  /** 1-based line in the decoded source, or null for document-level warnings. */
  line: number | null;
  /** Short machine-readable code: "unaccounted-line", "no-effective-date", ... */
  code: string;
  message: string;
}

/** Line accounting: every non-blank line of the rules and glossary must be claimed. */
export interface LineAccounting {
  /** Non-blank lines inside the rules and glossary parts. */
  bodyLines: number;
  /** Of those, lines claimed as rule text, example, heading or glossary. */
  accounted: number;
  /** 1-based line numbers of the lines nobody claimed. */
  unaccounted: number[];
}

/** A parsed document, ready to be stored as (part of) an edition. */
export interface ParsedDocument {
  family: DocumentFamily;
  format: SourceFormat;
  /** Effective date the document states of itself (YYYY-MM-DD), or null. */
  effectiveDate: string | null;
  /** True when the source is a whole edition, false for fragments and excerpts. */
  complete: boolean;
  title: string | null;
  introduction: string | null;
  credits: string | null;
  parts: PartHeading[];
  /** Every numbered entry in document order, sections included. */
  rules: RuleNode[];
  glossary: GlossaryEntry[];
  /** Ability words listed by the edition (e.g. from rule 207.2c). */
  abilityWords: string[];
  /** Rulings Summaries index (topic → sections). Empty for the CR. */
  index: IndexEntry[];
  accounting: LineAccounting;
  warnings: ParseWarning[];
}

/** Result of decoding a byte buffer into text. */
export interface DecodedText {
  text: string;
  /** 'word': text extracted from a Word document (its paragraphs, one a line). */
  encoding: 'ascii' | 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'mac-roman' | 'word';
  /** Line endings seen in the source; the decoded text always uses "\n". */
  lineEndings: Array<'lf' | 'crlf' | 'cr' | 'nel' | 'ls' | 'ps'>;
  /** Set when the bytes were damaged and had to be repaired (characters were lost). */
  damage?: string;
  /**
   * Words holding a byte of another code page than the text's (a stray byte in a UTF-8 file, or
   * one no typography explains in a single-byte file), with what the word reads as in each code
   * page; the store step, which sees other editions, decides which reading the corpus attests.
   */
  ambiguous?: AmbiguousWord[];
}

/** A word holding stray bytes, as decoded and as it would read in other code pages. */
export interface AmbiguousWord {
  /** 1-based line in the decoded text. */
  line: number;
  /** The word as decoded (in the text's own code page). */
  read: string;
  /** Distinct other readings of the word, with the code page that gives each. */
  alternatives: Array<{ codePage: string; word: string }>;
}
