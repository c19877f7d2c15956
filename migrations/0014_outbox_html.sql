-- An HTML alternative for a queued mail (form notifications show the fields as a table);
-- empty for text-only mail.
ALTER TABLE outbox ADD COLUMN html_body TEXT NOT NULL DEFAULT '';
