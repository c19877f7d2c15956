-- Edge nodes report here every few seconds (issue 8). Keep equivalent to the PostgreSQL file.
CREATE TABLE edge_nodes (
    id               TEXT PRIMARY KEY,
    version          TEXT NOT NULL,
    region           TEXT NOT NULL,
    started_at       TEXT NOT NULL,
    last_seen_at     TEXT NOT NULL,
    requests         INTEGER NOT NULL DEFAULT 0,
    errors           INTEGER NOT NULL DEFAULT 0,
    p99_ms           REAL,
    cache_hit_ratio  REAL,
    certificates     INTEGER NOT NULL DEFAULT 0,
    recent_errors    TEXT NOT NULL DEFAULT '[]',
    history          TEXT NOT NULL DEFAULT '[]'
);
