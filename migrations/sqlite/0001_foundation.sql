-- Foundation schema (SQLite dialect). Keep equivalent to migrations/postgres/0001_foundation.sql.
CREATE TABLE businesses (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    plan        TEXT NOT NULL DEFAULT 'basic' CHECK (plan IN ('basic', 'agency')),
    created_at  TEXT NOT NULL
);

CREATE TABLE users (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    name               TEXT NOT NULL,
    email              TEXT NOT NULL,
    password_hash      TEXT NOT NULL,
    language           TEXT NOT NULL DEFAULT 'pt-BR',
    currency           TEXT NOT NULL DEFAULT 'BRL',
    business_id        INTEGER REFERENCES businesses(id) ON DELETE SET NULL,
    is_admin           INTEGER NOT NULL DEFAULT 0,
    is_business_admin  INTEGER NOT NULL DEFAULT 0,
    permissions        TEXT NOT NULL DEFAULT '{}',
    plan               TEXT NOT NULL DEFAULT 'basic' CHECK (plan IN ('basic', 'agency')),
    external_id        TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email)
);
CREATE INDEX users_business_idx ON users(business_id);

CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    impersonator_id  INTEGER REFERENCES users(id) ON DELETE CASCADE,
    created_at       TEXT NOT NULL,
    expires_at       TEXT NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions(user_id);

CREATE TABLE password_resets (
    token_hash  TEXT PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    used_at     TEXT
);

CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    to_addr          TEXT NOT NULL,
    subject          TEXT NOT NULL,
    body             TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    sent_at          TEXT,
    last_error       TEXT,
    created_at       TEXT NOT NULL
);
CREATE INDEX outbox_due_idx ON outbox(sent_at, next_attempt_at);

CREATE TABLE projects (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id              INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name                 TEXT NOT NULL,
    slug                 TEXT NOT NULL,
    domain               TEXT,
    token                TEXT NOT NULL,
    uuid                 TEXT NOT NULL,
    is_published         INTEGER NOT NULL DEFAULT 0,
    thumbnail            TEXT,
    thumbnail_timestamp  INTEGER,
    meta                 TEXT NOT NULL DEFAULT '{}',
    verified             INTEGER NOT NULL DEFAULT 0,
    verified_domain      TEXT,
    verified_at          TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    CONSTRAINT projects_slug_key UNIQUE (slug),
    CONSTRAINT projects_domain_key UNIQUE (domain),
    CONSTRAINT projects_token_key UNIQUE (token),
    CONSTRAINT projects_uuid_key UNIQUE (uuid)
);
CREATE INDEX projects_user_idx ON projects(user_id);

CREATE TABLE collections (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL,
    meta        TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    CONSTRAINT collections_slug_key UNIQUE (project_id, slug)
);

CREATE TABLE fields (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    collection_id  INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    slug           TEXT NOT NULL,
    type           TEXT NOT NULL,
    required       INTEGER NOT NULL DEFAULT 0,
    position       INTEGER NOT NULL DEFAULT 0,
    options        TEXT NOT NULL DEFAULT '[]',
    meta           TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT fields_slug_key UNIQUE (collection_id, slug)
);

CREATE TABLE posts (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    collection_id  INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    name           TEXT NOT NULL DEFAULT '',
    slug           TEXT NOT NULL,
    data           TEXT NOT NULL DEFAULT '{}',
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    CONSTRAINT posts_slug_key UNIQUE (collection_id, slug)
);

CREATE TABLE pages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    image        TEXT NOT NULL DEFAULT '',
    meta         TEXT NOT NULL DEFAULT '{}',
    output       TEXT NOT NULL DEFAULT '',
    blocks       TEXT NOT NULL DEFAULT '[]',
    table_id     INTEGER REFERENCES collections(id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    CONSTRAINT pages_slug_key UNIQUE (project_id, slug)
);

CREATE TABLE redirects (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    from_path   TEXT NOT NULL,
    to_path     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    CONSTRAINT redirects_from_key UNIQUE (project_id, from_path)
);

CREATE TABLE templates (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    category      TEXT NOT NULL DEFAULT '',
    sort_order    INTEGER NOT NULL DEFAULT 99,
    is_published  INTEGER NOT NULL DEFAULT 1,
    thumbnail     TEXT,
    snapshot      TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    CONSTRAINT templates_name_key UNIQUE (name)
);
