-- Shared sections (SQLite). Keep equivalent to the PostgreSQL file.

-- A project's global header and footer (like Webflow Symbols): one block each, stored once
-- with its values and shown on every page of the project, above and below the page's own
-- blocks, unless the page opts out (page meta `hideHeader` / `hideFooter`). `block` is the
-- page-block JSON the editor edits ({uid, name, template, css, js, vars, effect}).
CREATE TABLE global_sections (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('header', 'footer')),
    block       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    CONSTRAINT global_sections_kind_key UNIQUE (project_id, kind)
);
