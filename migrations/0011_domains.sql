-- Domains belong to whoever proves them; freed preview slugs cool off; ACME quotas per tenant
-- (issue 20). Keep equivalent to the {{other}} file.

-- The unit of a project's verified custom domain: the name without one leading "www.". A
-- name and its www twin are one unit, and the unique index below lets one project hold it.
--sqlite: -- VIRTUAL here (SQLite cannot add a STORED column to a table), STORED on PostgreSQL (which
--sqlite: -- has no virtual ones): the same column and index either way.
ALTER TABLE projects ADD COLUMN domain_unit TEXT GENERATED ALWAYS AS (
    CASE WHEN substr(verified_domain, 1, 4) = 'www.' THEN substr(verified_domain, 5)
         ELSE verified_domain END
--postgres: ) STORED;
--sqlite: ) VIRTUAL;

-- A domain an owner asked for and has not proven yet. It reserves nothing: any number of
-- projects may wait for the same name, and the one that proves it by TXT evicts the others.
-- The control plane re-checks each on its own (next_check_at, NULL once it gave up); a node
-- takes a check by moving next_check_at forward, so two nodes never check one claim at once.
CREATE TABLE domain_claims (
    project_id     {{int}} PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    domain         TEXT NOT NULL,
    unit           TEXT NOT NULL,
    checks         {{int}} NOT NULL DEFAULT 0,
    last_result    TEXT,
    checked_at     {{time}},
    next_check_at  {{time}},
    created_at     {{time}} NOT NULL
);
CREATE INDEX domain_claims_unit_idx ON domain_claims(unit);
CREATE INDEX domain_claims_due_idx ON domain_claims(next_check_at);

-- Domains saved before this change without verification become pending claims, and so does
-- a verified domain whose unit an earlier-verified project already holds (its www twin).
INSERT INTO domain_claims (project_id, domain, unit, next_check_at, created_at)
SELECT id, domain,
       CASE WHEN substr(domain, 1, 4) = 'www.' THEN substr(domain, 5) ELSE domain END,
       {{now}}, {{now}}
FROM projects
WHERE domain IS NOT NULL AND NOT (verified AND verified_domain IS NOT NULL AND verified_domain = domain)
ON CONFLICT (project_id) DO NOTHING;
INSERT INTO domain_claims (project_id, domain, unit, next_check_at, created_at)
--postgres: SELECT p.id, p.verified_domain, p.domain_unit, now(), now()
--sqlite: SELECT p.id, p.verified_domain, p.domain_unit,
--sqlite:        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
FROM projects p
WHERE p.verified AND p.domain_unit IS NOT NULL AND EXISTS (
    SELECT 1 FROM projects o
    WHERE o.verified AND o.id <> p.id AND o.domain_unit = p.domain_unit
      AND (o.verified_at < p.verified_at OR (o.verified_at = p.verified_at AND o.id < p.id)))
ON CONFLICT (project_id) DO NOTHING;
DELETE FROM certificates WHERE project_id IN (SELECT project_id FROM domain_claims);
UPDATE projects SET domain = NULL, verified = FALSE, verified_domain = NULL, verified_at = NULL
WHERE id IN (SELECT project_id FROM domain_claims) OR NOT verified;
CREATE UNIQUE INDEX projects_domain_unit_key ON projects(domain_unit);

-- A preview slug given up (project deleted or slug changed) by user_id at released_at: only
-- that user may take it during the cooling-off period (SLUG_COOLING_OFF_DAYS).
CREATE TABLE slug_holds (
    slug         TEXT PRIMARY KEY,
    user_id      {{int}} NOT NULL,
    released_at  {{time}} NOT NULL
);
CREATE INDEX slug_holds_released_idx ON slug_holds(released_at);

-- Orders are counted per project and per account (the owner's business, else the owner:
-- 'b{id}' or 'u{id}') as well as in total. No foreign keys: deleting a project must not give
-- its tenant a fresh quota.
ALTER TABLE acme_orders ADD COLUMN project_id {{int}};
ALTER TABLE acme_orders ADD COLUMN account TEXT;
CREATE INDEX acme_orders_project_idx ON acme_orders(project_id, created_at);
CREATE INDEX acme_orders_account_idx ON acme_orders(account, created_at);

-- The back-off of a host name after failed orders, kept apart from its certificate row so
-- that removing the domain (or the project) and verifying it again does not reset it.
CREATE TABLE acme_backoff (
    domain           TEXT PRIMARY KEY,
    failures         {{int}} NOT NULL,
    next_attempt_at  {{time}} NOT NULL,
    last_error       TEXT,
    updated_at       {{time}} NOT NULL
);
