-- Server-side conversion events (Facebook Conversion API `Lead`), one per form submission of
-- a site that turned the integration on. The edge writes a row in the submission's own
-- transaction (without the access token, which the edge never sees); the control plane's worker
-- adds the project's token and pixel id when it sends, with retries like the mail outbox.
CREATE TABLE conversion_events (
    id               {{id}},
    project_id       {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    payload          TEXT NOT NULL,
    attempts         {{int}} NOT NULL DEFAULT 0,
    next_attempt_at  {{time}} NOT NULL,
    sent_at          {{time}},
    last_error       TEXT,
    created_at       {{time}} NOT NULL
);
CREATE INDEX conversion_events_due_idx ON conversion_events(sent_at, next_attempt_at);
CREATE INDEX conversion_events_project_idx ON conversion_events(project_id);
