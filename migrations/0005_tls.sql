-- Custom domains and TLS ({{this}}). Keep equivalent to the {{other}} file.

-- One row per host name the edge holds (or is getting) a certificate for. The row is also the
-- ordering lease: a node orders only while lease_owner is itself and lease_until is ahead.
-- status: 'pending' (no certificate yet), 'issued', 'failing' (the last attempt failed;
-- cert_pem may still hold the previous, still valid certificate).
CREATE TABLE certificates (
    domain           TEXT PRIMARY KEY,
    project_id       {{int}} REFERENCES projects(id) ON DELETE CASCADE,
    status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'issued', 'failing')),
    cert_pem         TEXT,
    key_pem          TEXT,
    not_after        {{time}},
    last_error       TEXT,
    failures         {{int}} NOT NULL DEFAULT 0,
    next_attempt_at  {{time}},
    lease_owner      TEXT,
    lease_until      {{time}},
    created_at       {{time}} NOT NULL,
    updated_at       {{time}} NOT NULL
);
CREATE INDEX certificates_project_idx ON certificates(project_id);
CREATE INDEX certificates_not_after_idx ON certificates(not_after);

-- HTTP-01 answers, readable by every edge node whichever one the ACME server reaches.
CREATE TABLE acme_challenges (
    token              TEXT PRIMARY KEY,
    key_authorization  TEXT NOT NULL,
    domain             TEXT NOT NULL,
    created_at         {{time}} NOT NULL
);

-- The ACME account per directory, shared by all nodes (credentials hold the private key).
CREATE TABLE acme_accounts (
    directory_url  TEXT PRIMARY KEY,
    credentials    TEXT NOT NULL,
    created_at     {{time}} NOT NULL
);

-- Every order placed, for the platform-wide cap on orders per hour.
CREATE TABLE acme_orders (
    id          {{id}},
    domain      TEXT NOT NULL,
    node        TEXT NOT NULL,
    created_at  {{time}} NOT NULL
);
CREATE INDEX acme_orders_created_idx ON acme_orders(created_at);
