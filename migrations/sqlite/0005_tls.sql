-- Custom domains and TLS (SQLite). Keep equivalent to the PostgreSQL file.

-- One row per host name the edge holds (or is getting) a certificate for. The row is also the
-- ordering lease: a node orders only while lease_owner is itself and lease_until is ahead.
-- status: 'pending' (no certificate yet), 'issued', 'failing' (the last attempt failed;
-- cert_pem may still hold the previous, still valid certificate).
CREATE TABLE certificates (
    domain           TEXT PRIMARY KEY,
    project_id       INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'issued', 'failing')),
    cert_pem         TEXT,
    key_pem          TEXT,
    not_after        TEXT,
    last_error       TEXT,
    failures         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    lease_owner      TEXT,
    lease_until      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX certificates_project_idx ON certificates(project_id);
CREATE INDEX certificates_not_after_idx ON certificates(not_after);

-- HTTP-01 answers, readable by every edge node whichever one the ACME server reaches.
CREATE TABLE acme_challenges (
    token              TEXT PRIMARY KEY,
    key_authorization  TEXT NOT NULL,
    domain             TEXT NOT NULL,
    created_at         TEXT NOT NULL
);

-- The ACME account per directory, shared by all nodes (credentials hold the private key).
CREATE TABLE acme_accounts (
    directory_url  TEXT PRIMARY KEY,
    credentials    TEXT NOT NULL,
    created_at     TEXT NOT NULL
);

-- Every order placed, for the platform-wide cap on orders per hour.
CREATE TABLE acme_orders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    domain      TEXT NOT NULL,
    node        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX acme_orders_created_idx ON acme_orders(created_at);
