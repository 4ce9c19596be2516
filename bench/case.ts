// What one benchmark case reports: its own median time next to its floor measured in the same
// run, and the ratio between them (absolute times on a shared machine are noisy; ratios hold).
export interface BenchResult {
  name: string;
  /** Median milliseconds of the case itself. */
  ms: number;
  /** Median milliseconds of the floor (the unavoidable work, done the rawest way). */
  floorMs: number | null;
  /** ms / floorMs; the target is the case's own. */
  ratio: number | null;
  target: string;
  /** Further figures: throughput, peak RSS, ... */
  extra: Record<string, number | string>;
}

export interface BenchCase {
  name: string;
  run(): Promise<BenchResult>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p99 of 100 runs is the slowest but one). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
