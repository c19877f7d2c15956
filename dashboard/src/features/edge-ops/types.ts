/** GET /api/edges: every edge node as its heartbeats left it, with the server's clock. */
export interface EdgeOverview {
  /** The server's time of this answer: ages and uptimes are measured from it, not the browser's clock. */
  now: string;
  /** A node without a heartbeat for this long is stale (the server sets `stale`). */
  stale_after_seconds: number;
  nodes: EdgeNode[];
}

/** One edge node. `requests` and `errors` are totals since `started_at`. */
export interface EdgeNode {
  id: string;
  version: string;
  region: string;
  started_at: string;
  last_seen_at: string;
  stale: boolean;
  requests: number;
  errors: number;
  /** Null until the node has served a request. */
  p99_ms: number | null;
  /** 0–1; null until the node has served a request. */
  cache_hit_ratio: number | null;
  certificates: number;
  recent_errors: EdgeRecentError[];
  /** One point per heartbeat (about every 5 s, up to 120), oldest first. */
  history: EdgeHistoryPoint[];
}

/** A request the node answered with an error status. */
export interface EdgeRecentError {
  at: string;
  status: number;
  host: string;
  path: string;
}

/** Requests and errors served in the interval that ended at `at`. */
export interface EdgeHistoryPoint {
  at: string;
  requests: number;
  errors: number;
}
