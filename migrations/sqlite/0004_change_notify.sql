-- PostgreSQL notifies listening edges of each change-feed entry (LISTEN vitrine_changes).
-- SQLite has no notifications: edges on SQLite poll the changes table, so nothing changes here.
-- (Kept so both dialects carry the same migration numbers.)
SELECT 1;
