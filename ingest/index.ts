export type * from './types.js';
export { decodeBuffer, DecodeError } from './decode.js';
export { normalizeText } from './normalize.js';
export { IngestError } from './IngestError.js';
