-- Records' values are stored as json (validated text) rather than jsonb. The server always
-- writes normalised JSON and never queries posts by containment, so jsonb's binary form
-- bought nothing here, while converting to it was a third of the cost of a bulk import
-- (100,000 rows by COPY: 1.5 s as jsonb, 1.1 s as json on this machine). Order keys cast
-- the one value they compare to jsonb, which orders JSON values; json has no ordering.
ALTER TABLE posts ALTER COLUMN data DROP DEFAULT;
ALTER TABLE posts ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE posts ALTER COLUMN data SET DEFAULT '{}';
