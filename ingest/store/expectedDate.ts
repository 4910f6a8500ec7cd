import { decodeBuffer } from '../parse/decode.js';
import { findEffectiveDate } from '../parse/effectiveDate.js';
import { labelDateOf } from './sources.js';

/** How much of a file is read to guess its date: the statement sits at the top of every edition. */
const HEAD_BYTES = 64 * 1024;

/**
 * The effective date an input is expected to have, before it is parsed: the date its first
 * 64 KB state, else the date in its name; null when neither says. Only a guess (the parser
 * decides), used to store each edition as soon as no other input can belong to it.
 */
export function expectedDate(location: string, bytes: Uint8Array): string | null {
  let head: string | null = null;
  try {
    // an even length keeps UTF-16 whole; a cut multi-byte character only spoils the last one
    head = decodeBuffer(bytes.subarray(0, Math.min(bytes.length, HEAD_BYTES) & ~1)).text;
  } catch {
    head = null;
  }
  return (head === null ? null : findEffectiveDate(head)) ?? labelDateOf(location);
}
