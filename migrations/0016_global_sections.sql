-- Shared sections ({{this}}). Keep equivalent to the {{other}} file.

-- A project's global header and footer (like Webflow Symbols): one block each, stored once
-- with its values and shown on every page of the project, above and below the page's own
-- blocks, unless the page opts out (page meta `hideHeader` / `hideFooter`). `block` is the
-- page-block JSON the editor edits ({uid, name, template, css, js, vars, effect}).
CREATE TABLE global_sections (
    id          {{id}},
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('header', 'footer')),
    block       {{json}} NOT NULL,
    created_at  {{time}} NOT NULL,
    updated_at  {{time}} NOT NULL,
    CONSTRAINT global_sections_kind_key UNIQUE (project_id, kind)
);
