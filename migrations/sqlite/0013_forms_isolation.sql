-- Forms isolation (issue 20). Keep equivalent to the PostgreSQL file.

-- Each project's form history size, kept by every insert and delete so the per-project cap
-- (FORM_HISTORY_MAX_ENTRIES) never has to count rows, and what the cap trimmed, for the
-- owner's notice.
CREATE TABLE form_history_usage (
    project_id       INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    entries          INTEGER NOT NULL DEFAULT 0,
    trimmed          INTEGER NOT NULL DEFAULT 0,
    last_trimmed_at  TEXT
);
INSERT INTO form_history_usage (project_id, entries)
    SELECT project_id, COUNT(*) FROM form_history GROUP BY project_id;

-- Notification addresses (meta.formEmail) and whether their mailbox confirmed them for the
-- project: until confirmed_at is set no form notification is sent there. Only the hash of the
-- confirmation link's token is kept.
CREATE TABLE form_recipients (
    project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    email         TEXT NOT NULL,
    token_hash    TEXT NOT NULL,
    requests      INTEGER NOT NULL DEFAULT 1,
    requested_at  TEXT NOT NULL,
    confirmed_at  TEXT,
    PRIMARY KEY (project_id, email)
);
CREATE UNIQUE INDEX form_recipients_token_key ON form_recipients(token_hash);
CREATE INDEX form_recipients_requested_idx ON form_recipients(requested_at);
