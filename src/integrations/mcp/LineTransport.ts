import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Longest message line read, in bytes (the SDK's stdio limit); a longer one is answered with an error and skipped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

// The SDK's StdioServerTransport closes the whole session, silently, on a line past its buffer limit,
// and answers nothing to a line that is not JSON-RPC. Here each bad line gets a JSON-RPC error (id
// null when it cannot be read) and the session goes on; a long line is never held past the limit.

/** An MCP transport over newline-delimited JSON-RPC streams (stdin and stdout for `crkb mcp`). */
export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private length = 0;
  private skipping = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Starts reading messages from the input. */
  async start(): Promise<void> {
    this.input.on('data', this.ondata);
    this.input.on('error', this.oninputError);
  }

  /** Writes one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((done) => {
      if (this.output.write(serializeMessage(message))) done();
      else this.output.once('drain', done);
    });
  }

  /** Stops reading. */
  async close(): Promise<void> {
    this.input.off('data', this.ondata);
    this.input.off('error', this.oninputError);
    this.chunks = [];
    this.onclose?.();
  }

  private readonly oninputError = (e: Error): void => this.onerror?.(e);

  private readonly ondata = (data: Buffer | string): void => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    for (let from = 0; from <= chunk.length;) {
      const nl = chunk.indexOf(10, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping && this.length + (end - from) > this.maxLineBytes) {
        this.skipping = true;
        this.chunks = [];
        this.length = 0;
        this.reply(null, ErrorCode.InvalidRequest, `message line longer than ${this.maxLineBytes} bytes (${this.maxLineBytes / (1024 * 1024)} MB): skipped`);
      }
      if (!this.skipping && end > from) {
        this.chunks.push(chunk.subarray(from, end));
        this.length += end - from;
      }
      if (nl === -1) break;
      if (this.skipping) this.skipping = false;
      else this.line(Buffer.concat(this.chunks, this.length).toString('utf8').replace(/\r$/, ''));
      this.chunks = [];
      this.length = 0;
      from = nl + 1;
    }
  };

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.reply(null, ErrorCode.ParseError, `parse error: ${(e as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.reply(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.InvalidRequest, 'invalid request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    // the schema's id type leaves out the null that JSON-RPC 2.0 gives an error about an unreadable request
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
