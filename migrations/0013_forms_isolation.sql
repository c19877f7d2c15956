-- Forms isolation (issue 20). Keep equivalent to the {{other}} file.

-- Each project's form history size, kept by every insert and delete so the per-project cap
-- (FORM_HISTORY_MAX_ENTRIES) never has to count rows, and what the cap trimmed, for the
-- owner's notice.
CREATE TABLE form_history_usage (
    project_id       {{int}} PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    entries          {{int}} NOT NULL DEFAULT 0,
    trimmed          {{int}} NOT NULL DEFAULT 0,
    last_trimmed_at  {{time}}
);
INSERT INTO form_history_usage (project_id, entries)
    SELECT project_id, COUNT(*) FROM form_history GROUP BY project_id;

-- Notification addresses (meta.formEmail) and whether their mailbox confirmed them for the
-- project: until confirmed_at is set no form notification is sent there. Only the hash of the
-- confirmation link's token is kept.
CREATE TABLE form_recipients (
    project_id    {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    email         TEXT NOT NULL,
    token_hash    TEXT NOT NULL,
    requests      {{int}} NOT NULL DEFAULT 1,
    requested_at  {{time}} NOT NULL,
    confirmed_at  {{time}},
    PRIMARY KEY (project_id, email)
);
CREATE UNIQUE INDEX form_recipients_token_key ON form_recipients(token_hash);
CREATE INDEX form_recipients_requested_idx ON form_recipients(requested_at);
