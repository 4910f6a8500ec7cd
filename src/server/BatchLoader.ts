/**
 * A small per-request DataLoader: loads asked for in the same tick are
 * answered by one call of the batch function, and each key is loaded once.
 */
export class BatchLoader<K, V> {
  private readonly cache = new Map<string, Promise<V>>();
  private queue: Array<{ key: K; resolve: (v: V) => void; reject: (e: unknown) => void }> = [];

  constructor(
    private readonly batch: (keys: K[]) => V[],
    private readonly keyOf: (key: K) => string,
    private readonly beforeBatch: () => void = () => {},
  ) {}

  /** Loads one key, batched with every other key asked for in this tick. */
  load(key: K): Promise<V> {
    const k = this.keyOf(key);
    const cached = this.cache.get(k);
    if (cached) return cached;
    const p = new Promise<V>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      // after pending promise jobs, so resolvers of a whole list level queue first
      if (this.queue.length === 1) void Promise.resolve().then(() => process.nextTick(() => this.dispatch()));
    });
    this.cache.set(k, p);
    return p;
  }

  /** Loads several keys. */
  loadMany(keys: readonly K[]): Promise<V[]> {
    return Promise.all(keys.map((k) => this.load(k)));
  }

  private dispatch(): void {
    const q = this.queue;
    this.queue = [];
    try {
      this.beforeBatch();
      const values = this.batch(q.map((x) => x.key));
      q.forEach((x, i) => x.resolve(values[i] as V));
    } catch (e) {
      for (const x of q) x.reject(e);
    }
  }
}
