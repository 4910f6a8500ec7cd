import { CITED_FAMILIES } from '../../core/families.js';
import { RULE_NUMBER_RE } from '../../core/ruleNumber.js';
import { CHAT_LIMIT } from '../../query/chatText.js';

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const nullable = (s: Schema): Schema => ({ ...s, type: [s.type as string, 'null'] });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties), description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required,
  additionalProperties: false,
});

const edition = {
  name: 'edition',
  in: 'query',
  description: 'An effective date, any other date (the edition in force that day), a set code (AFR) or `latest` (default).',
  schema: { type: 'string', maxLength: 64, examples: ['latest', '2021-07-23', 'AFR'] },
};
const format = {
  name: 'format',
  in: 'query',
  description: `json (default), or text / markdown: one chat message of at most ${CHAT_LIMIT} characters, cut at a line with a link to the rest (unless full=1). An error is answered in the format asked for.`,
  schema: { type: 'string', enum: ['json', 'text', 'markdown', 'md'] },
};
const examples = { name: 'examples', in: 'query', description: 'Include examples (1).', schema: { type: 'string', enum: ['0', '1', 'true', 'false'] } };
const full = {
  name: 'full',
  in: 'query',
  description: `Text and markdown: the whole answer, without the ${CHAT_LIMIT.toLocaleString('en-US')}-character cap (1).`,
  schema: { type: 'string', enum: ['0', '1', 'true', 'false'] },
};

/** An error in JSON (the Error schema), or a line of text or Markdown when that format was asked for. */
const errorContent = {
  'application/json': { schema: ref('Error') },
  'text/plain': { schema: { type: 'string' } },
  'text/markdown': { schema: { type: 'string' } },
};
const errors = {
  '400': { description: 'A bad argument (named in the message).', content: errorContent },
  '404': { description: 'No such rule or term, with suggestions.', content: errorContent },
};
const lookupResponses = {
  '200': {
    description: `The answer. Pinned editions are cached for a year (immutable), \`latest\` for five minutes; ETag and 304. Text and Markdown are at most ${CHAT_LIMIT.toLocaleString('en-US')} characters unless full=1.`,
    content: {
      'application/json': { schema: ref('LookupResult') },
      'text/plain': { schema: { type: 'string' } },
      'text/markdown': { schema: { type: 'string' } },
    },
  },
  ...errors,
};

const newerKnown: Schema = {
  oneOf: [ref('NewerKnown'), { type: 'null' }],
  description: 'A newer edition the manifest knows and the database lacks; null when up to date.',
};
const filesEdition = {
  ...edition,
  in: 'path',
  required: true,
  description: 'An effective date, any other date (the edition in force that day), a set code (AFR) or `latest`.',
  schema: { type: 'string', maxLength: 64, pattern: '^[^.]+$', examples: ['latest', '2021-07-23', 'AFR'] },
};
const fileHeaders = {
  'X-Source-SHA256': { description: 'sha256 (hex) of the file as published.', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  'Content-Location': { description: 'The address of this file by its effective date (/v1/files/2021-07-23.txt).', schema: { type: 'string' } },
};
const filesNotFound = {
  description: 'No edition answers the argument, or the edition has no stored text file (stored from a Word document): the message says which.',
  content: { 'application/json': { schema: ref('Error') } },
};

/** The OpenAPI 3.1 document of the /v1 endpoints, with `server` as the server URL. */
export function openApiDocument(server: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'crkb bot endpoints',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Every edition of the Magic: The Gathering Comprehensive Rules, 1999 to today. Chat-sized lookups, search, citation checks and whole editions. GraphQL (with history, diffs and cross-references) is at /graphql.',
    },
    servers: [{ url: server }],
    // public, read-only endpoints: no authentication
    security: [],
    paths: {
      '/v1/lookup': {
        get: {
          operationId: 'lookup',
          summary: 'What a bot sends: a number, range, example, keyword, term, abbreviation or question',
          description:
            'Reads "702.19b", "CR 702.19b", "601.2a-h", "702.19b ex 2", "trample", "dies", "define dies", "what is a token", "sba", or a misspelling (answered with the closest term and suggestions).',
          parameters: [
            { name: 'q', in: 'query', required: true, description: 'What the user typed; at most 100 characters.', schema: { type: 'string', maxLength: 100 } },
            edition,
            format,
            examples,
            full,
          ],
          responses: lookupResponses,
        },
      },
      '/v1/rules/{number}': {
        get: {
          operationId: 'rule',
          summary: 'One rule with its subrules',
          parameters: [
            {
              name: 'number',
              in: 'path',
              required: true,
              description: 'A rule number (702.19b).',
              // the canonical form (with a final dot allowed); a "CR" prefix and capitals are read too
              schema: { type: 'string', pattern: RULE_NUMBER_RE.source.replace(/\$$/, '\\.?$') },
            },
            edition,
            format,
            examples,
            full,
          ],
          responses: lookupResponses,
        },
      },
      '/v1/search': {
        get: {
          operationId: 'search',
          summary: 'Full-text search of one edition (bm25, typo tolerant)',
          parameters: [
            { name: 'q', in: 'query', required: true, description: 'Plain words; at most 500 characters.', schema: { type: 'string', maxLength: 500 } },
            edition,
            { name: 'limit', in: 'query', description: 'Hits, 1-50 (default 10).', schema: { type: 'integer', minimum: 1, maximum: 50 } },
            format,
          ],
          responses: {
            '200': {
              description: 'Hits, best first. JSON snippets are HTML (matches in <b>); markdown ones Markdown.',
              content: {
                'application/json': { schema: ref('SearchResult') },
                'text/plain': { schema: { type: 'string' } },
                'text/markdown': { schema: { type: 'string' } },
              },
            },
            '400': errors['400'],
          },
        },
      },
      '/v1/citations': {
        post: {
          operationId: 'citations',
          summary: 'Check rule citations written against one edition in another',
          description:
            'For each rule cited in `text` (or listed in `numbers`): the rule it named in the `asOf` edition, where the same rule is now (followed across renumbering) in `to` (default latest), or since when it is gone, and whether a quoted title still matches.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('CitationRequest') } } },
          responses: {
            '200': {
              description: 'The report: JSON, or a Markdown table with "format": "markdown".',
              content: { 'application/json': { schema: ref('CitationReport') }, 'text/markdown': { schema: { type: 'string' } } },
            },
            '400': {
              description: 'A bad or missing argument, named (in Markdown once "format": "markdown" is read).',
              content: { 'application/json': { schema: ref('Error') }, 'text/markdown': { schema: { type: 'string' } } },
            },
            '413': { description: 'A body over 1 MB.', content: { 'application/json': { schema: ref('Error') } } },
          },
        },
      },
      '/v1/editions/{edition}.json': {
        get: {
          operationId: 'exportEdition',
          summary: 'One edition whole (the crkb export shape)',
          parameters: [{ ...edition, in: 'path', required: true }],
          responses: {
            '200': { description: 'The edition.', content: { 'application/json': { schema: ref('EditionExport') } } },
            '400': { description: 'Not an edition.', content: { 'application/json': { schema: ref('Error') } } },
          },
        },
      },
      '/v1/files/{edition}.txt': {
        get: {
          operationId: 'publishedFile',
          summary: 'The text file an edition was stored from, byte for byte as published',
          description:
            'The bytes of the official text file crkb stored for the edition (its line endings, byte order mark and encoding as published: UTF-8, UTF-16, Windows-1252, Mac Roman or ASCII, named in the Content-Type charset). X-Source-SHA256 and the ETag are the sha256 of those bytes (a compressed response tags its coding: "…-gzip", "…-br"). An edition stored from a Word document has no text file: 404, naming the newest edition before it that has one.',
          parameters: [filesEdition],
          responses: {
            '200': {
              description: 'The file as published. Pinned editions are cached for a year (immutable), `latest` and other dates for five minutes.',
              headers: fileHeaders,
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            '404': filesNotFound,
          },
        },
      },
      '/v1/files/{edition}.utf8.txt': {
        get: {
          operationId: 'publishedFileNormalized',
          summary: 'The same file as UTF-8 text with LF line endings',
          description:
            'The published file decoded as crkb read it, without a byte order mark, every line ending a line feed, in UTF-8: for tools that want text, not the original bytes. X-Source-SHA256 is still the sha256 of the file as published.',
          parameters: [filesEdition],
          responses: {
            '200': {
              description: 'The text, UTF-8 with LF line endings.',
              headers: fileHeaders,
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            '404': filesNotFound,
          },
        },
      },
    },
    components: {
      schemas: {
        Error: obj({
          error: obj(
            {
              code: { type: 'string', enum: ['BAD_USER_INPUT', 'NOT_FOUND'], description: 'What went wrong.' },
              message: str('A sentence naming the argument and the problem.'),
              suggestions: { type: 'array', items: { type: 'string' }, description: 'What the user may have meant.' },
              argument: str('The argument at fault.'),
            },
            ['code', 'message'],
          ),
        }),
        RuleSide: obj({ number: str('The rule number.'), text: str('Its text.') }),
        LookupRule: obj(
          {
            number: str('The rule number.'),
            parent: nullable(str('The number it sits under.')),
            text: str('Its text as published.'),
            examples: { type: 'array', items: { type: 'string' }, description: 'Its examples (with examples=1).' },
          },
          ['number', 'parent', 'text'],
        ),
        LookupResult: obj(
          {
            query: str('The query as sent.'),
            kind: {
              type: 'string',
              enum: ['rule', 'range', 'example', 'keyword', 'interaction', 'glossary', 'fuzzy', 'search', 'none'],
              description: 'How it was answered.',
            },
            matched: nullable(str('What it was read as.')),
            edition: str('Effective date of the edition read.'),
            numbering: str("Present when the document publishes no numbers (the JAR): the rules' numbers are crkb's, its units' positions, and this says so."),
            rules: { type: 'array', items: ref('LookupRule') },
            glossary: { type: 'array', items: obj({ term: str('The term.'), definition: str('Its definition.') }) },
            example: obj({ index: { type: 'integer', minimum: 1 }, text: str('The example.') }, ['index', 'text'], 'The example asked for ("702.19b ex 2").'),
            duplicated: obj(
              { number: str('The number printed more than once.'), note: str('What the answer says of it.') },
              ['number', 'note'],
              'Present when the edition prints the number asked for more than once (2024-09-20: 702.175 Offspring and 702.175 Impending): every rule of it is in rules.',
            ),
            suggestions: { type: 'array', items: { type: 'string' } },
            url: str('The whole answer as text.'),
            newerKnown: newerKnown,
          },
          ['query', 'kind', 'matched', 'edition', 'rules', 'glossary', 'suggestions', 'url', 'newerKnown'],
        ),
        NewerKnown: obj(
          {
            effectiveDate: str('The newest edition the sources manifest knows, in force today, that this database does not store.'),
            setCode: nullable(str('Its set code, when it has one.')),
            setName: nullable(str('Its set name, when it has one.')),
            missing: { type: 'integer', minimum: 1, description: 'How many known editions in force today are newer than the newest stored.' },
            how: { type: 'string', enum: ['crkb update'], description: 'What stores them.' },
          },
          undefined,
          'A newer edition is known but not stored: the answer reads older rules than those in force.',
        ),
        SearchResult: obj({
          query: str('The words searched.'),
          edition: str('Effective date of the edition searched.'),
          newerKnown: newerKnown,
          hits: {
            type: 'array',
            items: obj({
              kind: { type: 'string', enum: ['rule', 'example', 'glossary'] },
              number: nullable(str('The rule (rule and example hits).')),
              term: nullable(str('The glossary term (glossary hits).')),
              exampleIndex: { type: ['integer', 'null'], description: 'Index of the example, from 0.' },
              snippet: str('An excerpt around the matches.'),
            }),
          },
        }),
        CitationRequest: {
          ...obj(
            {
              text: str(
                'A text citing rules ("rule 706.10", "rules 601.2a-h", a bare 704.5m) or tournament-document sections ("MTR 2.3", "IPG 3.2 (Game Rule Violation)", "section 4.1 of the Magic Tournament Rules"); at most 200,000 characters.',
              ),
              numbers: {
                type: 'array',
                items: { type: 'string' },
                maxItems: 1000,
                description: 'Rule numbers ("704.5", "MTR 2.3", "IPG 2.1") instead of a text.',
              },
              asOf: str('When the citations were written: a date, an effective date or a set code.'),
              to: str('The edition to check them in (default latest).'),
              format: { type: 'string', enum: ['json', 'markdown'] },
            },
            ['asOf'],
          ),
          oneOf: [{ required: ['text'] }, { required: ['numbers'] }],
        },
        Citation: obj({
          cited: str('The number as cited ("IPG 2.1" for a tournament document).'),
          family: { type: 'string', enum: [...CITED_FAMILIES], description: 'The document cited, checked in its own editions in force at asOf and to.' },
          title: nullable(str('A title quoted or in parentheses after the number.')),
          then: { oneOf: [ref('RuleSide'), { type: 'null' }], description: 'The rule the number named in the asOf edition.' },
          status: { type: 'string', enum: ['same', 'moved', 'changed', 'gone', 'unknown'], description: 'unknown: the number named no rule then.' },
          now: { oneOf: [ref('RuleSide'), { type: 'null' }], description: 'The same rule in the edition checked.' },
          goneSince: nullable(str('Effective date of the first edition without it, when gone.')),
          textChange: {
            type: ['string', 'null'],
            enum: ['none', 'typography', 'references', 'correction', 'substantive', null],
            description:
              'How the text changed, in the classes of diffs and histories: typography (quotes, dashes, italics, spacing), references (reference numbers only), correction (a stale reference repaired), substantive; none when it did not.',
          },
          titleMatches: { type: ['boolean', 'null'], description: 'Whether the quoted title still matches.' },
        }),
        CitationReport: obj({
          asOf: str('Effective date of the edition the citations were written against.'),
          to: str('Effective date of the edition they were checked in.'),
          citations: { type: 'array', items: ref('Citation') },
        }),
        EditionExport: obj({
          effectiveDate: str('The edition.'),
          rules: {
            type: 'array',
            items: obj({
              number: { type: 'string' },
              parent: { type: ['string', 'null'] },
              text: { type: 'string' },
              examples: { type: 'array', items: { type: 'string' } },
            }),
          },
          glossary: { type: 'array', items: obj({ term: { type: 'string' }, definition: { type: 'string' } }) },
        }),
      },
    },
  };
}
