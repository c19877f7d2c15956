-- A business's own block library ({{this}}). Keep equivalent to the {{other}} file.

-- Written by the business's administrators and shown to its members in the editor beside My
-- Blocks; nobody outside the business reads or writes it (the global library, `blocks`, is
-- written by platform administrators only). Names are unique within the business ignoring
-- case (name_key is the trimmed, lower-cased name). A business's blocks go with it.
CREATE TABLE business_blocks (
    id           {{id}},
    business_id  {{int}} NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    name_key     TEXT NOT NULL,
    image        TEXT NOT NULL DEFAULT '',
    keywords     TEXT NOT NULL DEFAULT '',
    template     TEXT NOT NULL,
    css          TEXT NOT NULL DEFAULT '',
    js           TEXT NOT NULL DEFAULT '',
    sort_order   {{int}} NOT NULL DEFAULT 99,
    created_at   {{time}} NOT NULL,
    updated_at   {{time}} NOT NULL,
    CONSTRAINT business_blocks_name_key UNIQUE (business_id, name_key)
);
