--postgres: -- Foundation schema (PostgreSQL dialect). Keep equivalent to migrations/sqlite/0001_foundation.sql.
--sqlite: -- Foundation schema (SQLite dialect). Keep equivalent to migrations/postgres/0001_foundation.sql.
CREATE TABLE businesses (
    id          {{id}},
    name        TEXT NOT NULL,
    plan        TEXT NOT NULL DEFAULT 'basic' CHECK (plan IN ('basic', 'agency')),
    created_at  {{time}} NOT NULL
);

CREATE TABLE users (
    id                 {{id}},
    name               TEXT NOT NULL,
    email              TEXT NOT NULL,
    password_hash      TEXT NOT NULL,
    language           TEXT NOT NULL DEFAULT 'pt-BR',
    currency           TEXT NOT NULL DEFAULT 'BRL',
    business_id        {{int}} REFERENCES businesses(id) ON DELETE SET NULL,
    is_admin           {{bool}} NOT NULL DEFAULT {{false}},
    is_business_admin  {{bool}} NOT NULL DEFAULT {{false}},
    permissions        {{json}} NOT NULL DEFAULT '{}',
    plan               TEXT NOT NULL DEFAULT 'basic' CHECK (plan IN ('basic', 'agency')),
    external_id        TEXT,
    created_at         {{time}} NOT NULL,
    updated_at         {{time}} NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email)
);
CREATE INDEX users_business_idx ON users(business_id);

CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    user_id          {{int}} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    impersonator_id  {{int}} REFERENCES users(id) ON DELETE CASCADE,
    created_at       {{time}} NOT NULL,
    expires_at       {{time}} NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions(user_id);

CREATE TABLE password_resets (
    token_hash  TEXT PRIMARY KEY,
    user_id     {{int}} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at  {{time}} NOT NULL,
    expires_at  {{time}} NOT NULL,
    used_at     {{time}}
);

CREATE TABLE outbox (
    id               {{id}},
    to_addr          TEXT NOT NULL,
    subject          TEXT NOT NULL,
    body             TEXT NOT NULL,
    attempts         {{int}} NOT NULL DEFAULT 0,
    next_attempt_at  {{time}} NOT NULL,
    sent_at          {{time}},
    last_error       TEXT,
    created_at       {{time}} NOT NULL
);
CREATE INDEX outbox_due_idx ON outbox(sent_at, next_attempt_at);

CREATE TABLE projects (
    id                   {{id}},
    user_id              {{int}} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name                 TEXT NOT NULL,
    slug                 TEXT NOT NULL,
    domain               TEXT,
    token                TEXT NOT NULL,
    uuid                 TEXT NOT NULL,
    is_published         {{bool}} NOT NULL DEFAULT {{false}},
    thumbnail            TEXT,
    thumbnail_timestamp  {{int}},
    meta                 {{json}} NOT NULL DEFAULT '{}',
    verified             {{bool}} NOT NULL DEFAULT {{false}},
    verified_domain      TEXT,
    verified_at          {{time}},
    created_at           {{time}} NOT NULL,
    updated_at           {{time}} NOT NULL,
    CONSTRAINT projects_slug_key UNIQUE (slug),
    CONSTRAINT projects_domain_key UNIQUE (domain),
    CONSTRAINT projects_token_key UNIQUE (token),
    CONSTRAINT projects_uuid_key UNIQUE (uuid)
);
CREATE INDEX projects_user_idx ON projects(user_id);

CREATE TABLE collections (
    id          {{id}},
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL,
    meta        {{json}} NOT NULL DEFAULT '{}',
    created_at  {{time}} NOT NULL,
    updated_at  {{time}} NOT NULL,
    CONSTRAINT collections_slug_key UNIQUE (project_id, slug)
);

CREATE TABLE fields (
    id             {{id}},
    collection_id  {{int}} NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    slug           TEXT NOT NULL,
    type           TEXT NOT NULL,
    required       {{bool}} NOT NULL DEFAULT {{false}},
    position       {{int}} NOT NULL DEFAULT 0,
    options        {{json}} NOT NULL DEFAULT '[]',
    meta           {{json}} NOT NULL DEFAULT '{}',
    CONSTRAINT fields_slug_key UNIQUE (collection_id, slug)
);

CREATE TABLE posts (
    id             {{id}},
    collection_id  {{int}} NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    name           TEXT NOT NULL DEFAULT '',
    slug           TEXT NOT NULL,
    data           {{json}} NOT NULL DEFAULT '{}',
    created_at     {{time}} NOT NULL,
    updated_at     {{time}} NOT NULL,
    CONSTRAINT posts_slug_key UNIQUE (collection_id, slug)
);

CREATE TABLE pages (
    id           {{id}},
    project_id   {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    image        TEXT NOT NULL DEFAULT '',
    meta         {{json}} NOT NULL DEFAULT '{}',
    output       TEXT NOT NULL DEFAULT '',
    blocks       {{json}} NOT NULL DEFAULT '[]',
    table_id     {{int}} REFERENCES collections(id) ON DELETE SET NULL,
    created_at   {{time}} NOT NULL,
    updated_at   {{time}} NOT NULL,
    CONSTRAINT pages_slug_key UNIQUE (project_id, slug)
);

CREATE TABLE redirects (
    id          {{id}},
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    from_path   TEXT NOT NULL,
    to_path     TEXT NOT NULL,
    created_at  {{time}} NOT NULL,
    CONSTRAINT redirects_from_key UNIQUE (project_id, from_path)
);

CREATE TABLE templates (
    id            {{id}},
    name          TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    category      TEXT NOT NULL DEFAULT '',
    sort_order    {{int}} NOT NULL DEFAULT 99,
    is_published  {{bool}} NOT NULL DEFAULT {{true}},
    thumbnail     TEXT,
    snapshot      {{json}} NOT NULL,
    created_at    {{time}} NOT NULL,
    updated_at    {{time}} NOT NULL,
    CONSTRAINT templates_name_key UNIQUE (name)
);
