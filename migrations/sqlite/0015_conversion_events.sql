-- Server-side conversion events (Facebook Conversion API `Lead`), one per form submission of
-- a site that turned the integration on. The edge writes a row in the submission's own
-- transaction (without the access token, which the edge never sees); the control plane's worker
-- adds the project's token and pixel id when it sends, with retries like the mail outbox.
CREATE TABLE conversion_events (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id       INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    payload          TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    sent_at          TEXT,
    last_error       TEXT,
    created_at       TEXT NOT NULL
);
CREATE INDEX conversion_events_due_idx ON conversion_events(sent_at, next_attempt_at);
CREATE INDEX conversion_events_project_idx ON conversion_events(project_id);
