import { MessageChannel, type MessagePort } from 'node:worker_threads';

// A buffer transferred into a port whose other end is closed is detached and its memory freed at
// once (the first one a moment later, once that end has closed); merely dropped, it waits for a
// garbage collection, and V8 lets tens of megabytes of such external memory wait.
let sink: MessagePort | null = null;

/** Whether a typed array is the whole of its buffer (so the buffer can be transferred, or freed, with it). */
export function isWholeBuffer(a: Uint8Array | Float64Array): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength;
}

/** Frees the memory of `bytes` now, when they are the whole of their buffer (it is then empty); otherwise does nothing. */
export function releaseBuffer(bytes: Uint8Array): void {
  const { buffer } = bytes;
  if (!(buffer instanceof ArrayBuffer) || !isWholeBuffer(bytes) || buffer.byteLength === 0) return;
  if (sink === null) {
    const channel = new MessageChannel();
    channel.port2.close();
    channel.port1.unref();
    sink = channel.port1;
  }
  sink.postMessage(null, [buffer]);
}
