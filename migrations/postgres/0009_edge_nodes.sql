-- Edge nodes report here every few seconds (issue 8): the ops screen and the stale check
-- read this table. One row per node id; history and recent_errors are small rings the node
-- rewrites with each heartbeat. Keep equivalent to the SQLite file.
CREATE TABLE edge_nodes (
    id               TEXT PRIMARY KEY,
    version          TEXT NOT NULL,
    region           TEXT NOT NULL,
    started_at       TIMESTAMPTZ NOT NULL,
    last_seen_at     TIMESTAMPTZ NOT NULL,
    requests         BIGINT NOT NULL DEFAULT 0,
    errors           BIGINT NOT NULL DEFAULT 0,
    p99_ms           DOUBLE PRECISION,
    cache_hit_ratio  DOUBLE PRECISION,
    certificates     BIGINT NOT NULL DEFAULT 0,
    recent_errors    JSONB NOT NULL DEFAULT '[]',
    history          JSONB NOT NULL DEFAULT '[]'
);
