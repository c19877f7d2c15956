-- Publishing, the change feed and form history (SQLite). Keep equivalent to the PostgreSQL file.

-- An immutable deploy: its objects live under deploys/{project}/{id}/ in the object store and
-- its manifest at manifest_key. Only a 'ready' deploy can be active.
CREATE TABLE deploys (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    status        TEXT NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'ready', 'failed')),
    manifest_key  TEXT NOT NULL DEFAULT '',
    files         INTEGER NOT NULL DEFAULT 0,
    bytes         INTEGER NOT NULL DEFAULT 0,
    error         TEXT,
    created_by    INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at    TEXT NOT NULL,
    finished_at   TEXT
);
CREATE INDEX deploys_project_idx ON deploys(project_id, id);
ALTER TABLE projects ADD COLUMN active_deploy_id INTEGER REFERENCES deploys(id) ON DELETE SET NULL;

-- The change feed: every write that affects what visitors see appends a row. No foreign key,
-- so that deleting a project still tells the edges to forget it.
CREATE TABLE changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    key         TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL
);

-- Form submissions. uid makes a replay from an edge's spool idempotent.
CREATE TABLE form_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    uid         TEXT NOT NULL,
    url         TEXT NOT NULL DEFAULT '',
    submit      TEXT NOT NULL DEFAULT '',
    to_addr     TEXT NOT NULL DEFAULT '',
    subject     TEXT NOT NULL DEFAULT '',
    data        TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    CONSTRAINT form_history_uid_key UNIQUE (uid)
);
CREATE INDEX form_history_project_idx ON form_history(project_id, created_at);

CREATE INDEX redirects_project_created_idx ON redirects(project_id, created_at);
