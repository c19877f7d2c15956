--postgres: -- Edge nodes report here every few seconds (issue 8): the ops screen and the stale check
--postgres: -- read this table. One row per node id; history and recent_errors are small rings the node
--postgres: -- rewrites with each heartbeat. Keep equivalent to the SQLite file.
--sqlite: -- Edge nodes report here every few seconds (issue 8). Keep equivalent to the PostgreSQL file.
CREATE TABLE edge_nodes (
    id               TEXT PRIMARY KEY,
    version          TEXT NOT NULL,
    region           TEXT NOT NULL,
    started_at       {{time}} NOT NULL,
    last_seen_at     {{time}} NOT NULL,
    requests         {{int}} NOT NULL DEFAULT 0,
    errors           {{int}} NOT NULL DEFAULT 0,
    p99_ms           {{real}},
    cache_hit_ratio  {{real}},
    certificates     {{int}} NOT NULL DEFAULT 0,
    recent_errors    {{json}} NOT NULL DEFAULT '[]',
    history          {{json}} NOT NULL DEFAULT '[]'
);
