-- The block library ({{this}}). Keep equivalent to the {{other}} file.

-- Categories of the global library. seed_key is the seeded directory's key ('elements',
-- 'hero', …) so the seed updates in place; admin-created categories have none.
CREATE TABLE block_categories (
    id          {{id}},
    seed_key    TEXT,
    name        TEXT NOT NULL,
    icon        TEXT NOT NULL DEFAULT '',
    sort_order  {{int}} NOT NULL DEFAULT 99,
    created_at  {{time}} NOT NULL,
    updated_at  {{time}} NOT NULL,
    CONSTRAINT block_categories_seed_key UNIQUE (seed_key)
);

-- Global library blocks. name_key is the lower-cased name: names are unique ignoring case
-- ('Block Name already exists'). uid is stable across seeds and exports.
CREATE TABLE blocks (
    id           {{id}},
    uid          TEXT NOT NULL,
    name         TEXT NOT NULL,
    name_key     TEXT NOT NULL,
    category_id  {{int}} REFERENCES block_categories(id) ON DELETE RESTRICT,
    image        TEXT NOT NULL DEFAULT '',
    keywords     TEXT NOT NULL DEFAULT '',
    template     TEXT NOT NULL,
    css          TEXT NOT NULL DEFAULT '',
    js           TEXT NOT NULL DEFAULT '',
    sort_order   {{int}} NOT NULL DEFAULT 99,
    created_at   {{time}} NOT NULL,
    updated_at   {{time}} NOT NULL,
    CONSTRAINT blocks_uid_key UNIQUE (uid),
    CONSTRAINT blocks_name_key UNIQUE (name_key)
);
CREATE INDEX blocks_category_idx ON blocks(category_id, sort_order);

-- A user's own blocks (My Blocks).
CREATE TABLE my_blocks (
    id          {{id}},
    user_id     {{int}} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    template    TEXT NOT NULL,
    css         TEXT NOT NULL DEFAULT '',
    js          TEXT NOT NULL DEFAULT '',
    created_at  {{time}} NOT NULL,
    updated_at  {{time}} NOT NULL
);
CREATE INDEX my_blocks_user_idx ON my_blocks(user_id, id);
