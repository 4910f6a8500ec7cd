/** A rejected input: names the file (or URL) and says what is wrong with it. */
export class IngestError extends Error {
  constructor(
    readonly source: string,
    readonly reason: string,
  ) {
    super(`${source}: ${reason}`);
    this.name = 'IngestError';
  }
}
