/**
 * A maximum-weight matching of candidate pairs [after, before, score]: optimal (Hungarian method)
 * within each connected group of candidates of moderate size, greedy by score in larger ones.
 * Weights are scores above a floor, so one strong pair outweighs two weak ones.
 */
export function chooseMatching(cands: Array<[number, number, number]>): Array<[number, number, number]> {
  if (cands.length === 0) return [];
  // connected groups by union-find over after (even) and before (odd) nodes
  const id = new Map<number, number>();
  const up: number[] = [];
  const node = (k: number): number => {
    let n = id.get(k);
    if (n === undefined) {
      id.set(k, (n = up.length));
      up.push(n);
    }
    return n;
  };
  const find = (x: number): number => {
    while (up[x] !== x) x = up[x] = up[up[x]!]!;
    return x;
  };
  for (const [i, j] of cands) {
    const a = find(node(2 * i));
    const b = find(node(2 * j + 1));
    if (a !== b) up[a] = b;
  }
  const groups = new Map<number, Array<[number, number, number]>>();
  for (const c of cands) {
    const g = find(node(2 * c[0]));
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(c);
  }
  const out: Array<[number, number, number]> = [];
  for (const list of groups.values()) {
    const rows = [...new Set(list.map((c) => c[0]))];
    const cols = [...new Set(list.map((c) => c[1]))];
    if (list.length === 1 || Math.min(rows.length, cols.length) > 150 || Math.max(rows.length, cols.length) > 400) {
      list.sort((x, y) => y[2] - x[2] || x[0] - y[0] || x[1] - y[1]);
      const ri = new Set<number>();
      const cj = new Set<number>();
      for (const c of list) {
        if (ri.has(c[0]) || cj.has(c[1])) continue;
        ri.add(c[0]);
        cj.add(c[1]);
        out.push(c);
      }
      continue;
    }
    const flip = rows.length > cols.length;
    const [R, C] = flip ? [cols, rows] : [rows, cols];
    const rIdx = new Map(R.map((x, k) => [x, k]));
    const cIdx = new Map(C.map((x, k) => [x, k]));
    const cost = new Float64Array(R.length * C.length);
    const best = new Map<number, [number, number, number]>();
    for (const c of list) {
      const r = rIdx.get(flip ? c[1] : c[0])!;
      const k = cIdx.get(flip ? c[0] : c[1])!;
      const w = -Math.max(0.02, c[2] - 0.4);
      if (w < cost[r * C.length + k]!) {
        cost[r * C.length + k] = w;
        best.set(r * C.length + k, c);
      }
    }
    const match = hungarian(R.length, C.length, cost);
    for (let r = 0; r < R.length; r++) {
      const c = best.get(r * C.length + match[r]!);
      if (c) out.push(c);
    }
  }
  return out;
}

// Minimum-cost assignment of n rows to distinct columns among m >= n (cost row-major), O(n²m).
function hungarian(n: number, m: number, cost: Float64Array): Int32Array {
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * m + j - 1]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowToCol = new Int32Array(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]! > 0) rowToCol[p[j]! - 1] = j - 1;
  return rowToCol;
}
