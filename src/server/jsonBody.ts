import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** An error as body-parser makes it (what the server's error handler reads: status, type, expose). */
function bodyError(status: number, message: string, type: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}

/**
 * express.json({ limit }) with a short way for the common request: a UTF-8
 * JSON body of a stated length within the limit, not compressed. That one is
 * read and parsed here as body-parser would (an empty body is {}, a leading
 * BOM is dropped, strict: only an object or an array, the same error status
 * and type otherwise); everything else goes to express.json.
 */
export function jsonBody(limit: number, full: RequestHandler = express.json({ limit })): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const h = req.headers;
    const length = Number(h['content-length']);
    if (
      req.method !== 'POST' ||
      !PLAIN_JSON.test(h['content-type'] ?? '') ||
      (h['content-encoding'] !== undefined && h['content-encoding'].toLowerCase() !== 'identity') ||
      h['transfer-encoding'] !== undefined ||
      !/^\d+$/.test(h['content-length'] ?? '') ||
      length === 0 ||
      length > limit ||
      req.readableEnded
    ) {
      full(req, res, next);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (err) {
        req.resume();
        next(err);
        return;
      }
      let text = Buffer.concat(chunks, received).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let i = 0;
      while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
      if (text.length > 0 && text[i] !== '{' && text[i] !== '[') {
        next(bodyError(400, 'strict JSON: an object or an array', 'entity.parse.failed'));
        return;
      }
      try {
        req.body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
      } catch {
        next(bodyError(400, 'malformed JSON', 'entity.parse.failed'));
        return;
      }
      next();
    };
    const onData = (c: Buffer) => {
      received += c.length;
      if (received > limit) finish(bodyError(413, 'request entity too large', 'entity.too.large'));
      else chunks.push(c);
    };
    const onEnd = () => {
      if (received !== length) finish(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
      else finish(null);
    };
    const onError = (e: Error) => finish(bodyError(400, e.message, 'request.aborted'));
    const onAborted = () => finish(bodyError(400, 'request aborted', 'request.aborted'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  };
}
