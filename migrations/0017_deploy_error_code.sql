-- A failed deploy's reason as the dashboard shows it: the stable error code (translated from
-- the catalogue, errors.<code>) and the values its text names, beside the English text in error.
ALTER TABLE deploys ADD COLUMN error_code TEXT;
ALTER TABLE deploys ADD COLUMN error_params {{json}} NOT NULL DEFAULT '{}';
