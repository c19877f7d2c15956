-- Visitor analytics (docs/analytics.md): per site and day aggregates the edges add to every
-- flush. No address and no user agent is ever stored: a visitor is a 64-bit hash of the day's
-- salt (derived, never stored), the site, the network and the user agent. `day` is the UTC
-- date as YYYY-MM-DD. Rows older than two years are deleted by the edges' pruning.
CREATE TABLE analytics_days (
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    views       {{int}} NOT NULL DEFAULT 0,
    bots        {{int}} NOT NULL DEFAULT 0,
    whatsapp    {{int}} NOT NULL DEFAULT 0,
    phone       {{int}} NOT NULL DEFAULT 0,
    email       {{int}} NOT NULL DEFAULT 0,
    overflow    {{bool}} NOT NULL DEFAULT {{false}},
    sketch      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (project_id, day)
);
CREATE INDEX analytics_days_day_idx ON analytics_days(day);
-- The day's visitors, exactly, up to ANALYTICS_EXACT_VISITORS per site and day: the minute
-- last seen (for "now") and where the visitor's first page of the day came from.
CREATE TABLE analytics_visitors (
    project_id    {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    day           TEXT NOT NULL,
    visitor       {{int}} NOT NULL,
    seen_minute   {{int}} NOT NULL,
    source        TEXT NOT NULL,
    utm_source    TEXT NOT NULL,
    utm_medium    TEXT NOT NULL,
    utm_campaign  TEXT NOT NULL,
    device        TEXT NOT NULL,
    language      TEXT NOT NULL,
    PRIMARY KEY (project_id, day, visitor)
);
CREATE INDEX analytics_visitors_day_idx ON analytics_visitors(day);
-- Views per page and day; `found` false for the site's 404s.
CREATE TABLE analytics_pages (
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    path        TEXT NOT NULL,
    found       {{bool}} NOT NULL,
    views       {{int}} NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, day, path, found)
);
CREATE INDEX analytics_pages_day_idx ON analytics_pages(day);
-- Which of the day's exact visitors saw which page.
CREATE TABLE analytics_page_visitors (
    project_id  {{int}} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    path        TEXT NOT NULL,
    visitor     {{int}} NOT NULL,
    PRIMARY KEY (project_id, day, path, visitor)
);
CREATE INDEX analytics_page_visitors_day_idx ON analytics_page_visitors(day);
-- The fleet's analytics key when ANALYTICS_SECRET is not set: one row, made by whichever
-- server needs it first.
CREATE TABLE analytics_key (
    id      {{int}} PRIMARY KEY,
    secret  TEXT NOT NULL
);
