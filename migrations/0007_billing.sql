-- Billing, business users and impersonation ({{this}}). Keep equivalent to the {{other}} file.

-- When each site was on line: one row per period from a publish to the unpublish (or the
-- project's deletion) that ended it. The monthly billing charges every site with a period
-- overlapping the month. No foreign key: the history outlives a deleted project.
CREATE TABLE publications (
    id          {{id}},
    project_id  {{int}} NOT NULL,
    user_id     {{int}} NOT NULL,
    name        TEXT NOT NULL,
    started_at  {{time}} NOT NULL,
    ended_at    {{time}}
);
CREATE INDEX publications_project_idx ON publications(project_id, ended_at);
CREATE INDEX publications_period_idx ON publications(started_at, ended_at);
INSERT INTO publications (project_id, user_id, name, started_at)
    SELECT id, user_id, name, updated_at FROM projects WHERE is_published;

-- The account's ledger, in integer minor units of its currency: charges are negative,
-- payments positive; the balance is the sum. charge_key makes a billing run idempotent
-- ('plan:{user}:{yyyy-mm}', 'site:{project}:{yyyy-mm}').
CREATE TABLE transactions (
    id           {{id}},
    user_id      {{int}} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   {{time}} NOT NULL,
    description  TEXT NOT NULL,
    amount       {{int}} NOT NULL,
    currency     TEXT NOT NULL CHECK (currency IN ('BRL', 'USD')),
    charge_key   TEXT,
    CONSTRAINT transactions_charge_key UNIQUE (charge_key)
);
CREATE INDEX transactions_user_idx ON transactions(user_id, created_at);

-- Who did what on someone else's behalf (an administrator signing in as a user).
CREATE TABLE audit_log (
    id          {{id}},
    actor_id    {{int}} NOT NULL,
    action      TEXT NOT NULL,
    subject_id  {{int}},
    detail      TEXT NOT NULL DEFAULT '',
    created_at  {{time}} NOT NULL
);
CREATE INDEX audit_log_actor_idx ON audit_log(actor_id, created_at);
