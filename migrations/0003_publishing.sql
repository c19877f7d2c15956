-- Publishing, the change feed and form history ({{this}}). Keep equivalent to the {{other}} file.

-- An immutable deploy: its objects live under deploys/{project}/{id}/ in the object store and
-- its manifest at manifest_key. Only a 'ready' deploy can be active.
CREATE TABLE deploys (
    id            {{id}},
    project_id    {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    status        TEXT NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'ready', 'failed')),
    manifest_key  TEXT NOT NULL DEFAULT '',
    files         {{int}} NOT NULL DEFAULT 0,
    bytes         {{int}} NOT NULL DEFAULT 0,
    error         TEXT,
    created_by    {{int}} REFERENCES users(id) ON DELETE SET NULL,
    created_at    {{time}} NOT NULL,
    finished_at   {{time}}
);
CREATE INDEX deploys_project_idx ON deploys(project_id, id);
ALTER TABLE projects ADD COLUMN active_deploy_id {{int}} REFERENCES deploys(id) ON DELETE SET NULL;

-- The change feed: every write that affects what visitors see appends a row. No foreign key,
-- so that deleting a project still tells the edges to forget it.
CREATE TABLE changes (
    id          {{id}},
    project_id  {{int}} NOT NULL,
    kind        TEXT NOT NULL,
    key         TEXT NOT NULL DEFAULT '',
    created_at  {{time}} NOT NULL
);

-- Form submissions. uid makes a replay from an edge's spool idempotent.
CREATE TABLE form_history (
    id          {{id}},
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    uid         TEXT NOT NULL,
    url         TEXT NOT NULL DEFAULT '',
    submit      TEXT NOT NULL DEFAULT '',
    to_addr     TEXT NOT NULL DEFAULT '',
    subject     TEXT NOT NULL DEFAULT '',
    data        TEXT NOT NULL DEFAULT '',
    created_at  {{time}} NOT NULL,
    CONSTRAINT form_history_uid_key UNIQUE (uid)
);
CREATE INDEX form_history_project_idx ON form_history(project_id, created_at);

CREATE INDEX redirects_project_created_idx ON redirects(project_id, created_at);
