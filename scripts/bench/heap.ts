/**
 * The server's JavaScript heap, read from its own `GET /metrics` (prom-client's
 * `nodejs_heap_size_used_bytes`) while a load runs: what the soak judges a leak by.
 *
 * RSS alone can miss one: the throughput rounds before the soak grow the heap, and V8 keeps
 * those pages; a leak then fills them without the RSS moving, as a deliberate leak showed
 * (docs/benchmarks.md, "The soak judged a peak against one segment, and RSS can hide a leak").
 * The floor, the least used heap seen in a window (right after a collection), is the live data
 * and rises with a leak whatever the pages held.
 */

export interface HeapSampler {
  /** Starts a new window for `windowFloorMb`. */
  resetWindow(): void;
  /** The least used heap sampled since `resetWindow`, MB (NaN if no scrape answered). */
  windowFloorMb(): number;
  stop(): void;
}

/** Samples `origin`/metrics every `everyMs` with the server's METRICS_TOKEN. */
export function sampleHeap(origin: string, token: string, everyMs = 1000): HeapSampler {
  let floor = Number.POSITIVE_INFINITY;
  let scraping = false;
  const scrape = async () => {
    if (scraping) return;
    scraping = true;
    try {
      const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+?\d+)?)$/m.exec(text);
      if (response.ok && match) floor = Math.min(floor, Number(match[1]) / 1024 / 1024);
    } catch {
      // A scrape that failed is a sample missing, not a measurement.
    } finally {
      scraping = false;
    }
  };
  const timer = setInterval(() => void scrape(), everyMs);
  timer.unref();
  return {
    resetWindow() {
      floor = Number.POSITIVE_INFINITY;
    },
    windowFloorMb: () => (Number.isFinite(floor) ? floor : Number.NaN),
    stop: () => clearInterval(timer),
  };
}
