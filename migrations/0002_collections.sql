-- Collection listings and exports ({{this}}). Keep equivalent to the {{other}} file.
-- post_count is kept exact by the store in the same transaction as every post write, so a
-- listing's total never counts the rows of a large collection.
ALTER TABLE collections ADD COLUMN post_count {{int}} NOT NULL DEFAULT 0;
UPDATE collections SET post_count = (SELECT COUNT(*) FROM posts WHERE posts.collection_id = collections.id);
-- (collection_id, created_at, id) serves the default order, including ties within an import.
CREATE INDEX posts_collection_created_idx ON posts(collection_id, created_at, id);
CREATE INDEX posts_collection_id_idx ON posts(collection_id, id);
CREATE INDEX fields_collection_position_idx ON fields(collection_id, position);
CREATE INDEX collections_project_idx ON collections(project_id);
