-- Photos (issue 44): what each uploaded photo (a JPEG, PNG or WebP under `uploads/`) was made
-- into, one row per upload key: its upright size, its placeholder (a data URI) and its
-- variants (JSON: format, width, height, object key, bytes), all stored beside the upload.
-- `failed` is set, and there are no variants, for an upload made before photos that the
-- photo worker refused when converting it (the background conversion then passes it by).
CREATE TABLE photos (
    object_key   TEXT PRIMARY KEY,
    width        {{int}} NOT NULL,
    height       {{int}} NOT NULL,
    placeholder  TEXT NOT NULL,
    variants     {{json}} NOT NULL,
    failed       TEXT,
    made_at      {{time}} NOT NULL
);
