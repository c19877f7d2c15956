-- Fair shares of mail (issue 40), for both databases.

-- Whether an account's sign-in address confirmed that it takes notification mail (form
-- submissions): NULL until the link of its confirmation e-mail is opened. Only the hash of
-- the link's token is kept; `email_token_sends` counts the e-mails sent for the current
-- address. Accounts that exist now have been receiving their notifications: they count as
-- confirmed, so nothing stops for them (docs/security.md, "Mail").
ALTER TABLE users ADD COLUMN email_confirmed_at {{time}};
ALTER TABLE users ADD COLUMN email_token_hash TEXT;
ALTER TABLE users ADD COLUMN email_token_sent_at {{time}};
ALTER TABLE users ADD COLUMN email_token_sends {{int}} NOT NULL DEFAULT 0;
UPDATE users SET email_confirmed_at = created_at;
CREATE UNIQUE INDEX users_email_token_key ON users(email_token_hash);

-- A notification mail's recipient, lower-cased (NULL for mail someone asked for themselves:
-- a password reset, a confirmation): what the per-recipient hourly cap counts.
ALTER TABLE outbox ADD COLUMN recipient TEXT;
CREATE INDEX outbox_recipient_idx ON outbox(recipient, created_at);

-- The spreadsheet import link's own token, apart from the client panel's.
ALTER TABLE projects ADD COLUMN sheet_token TEXT;
CREATE UNIQUE INDEX projects_sheet_token_key ON projects(sheet_token);
