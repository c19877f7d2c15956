-- Indexes for collection listings and exports (SQLite). Keep equivalent to the PostgreSQL file.
CREATE INDEX posts_collection_created_idx ON posts(collection_id, created_at);
CREATE INDEX posts_collection_id_idx ON posts(collection_id, id);
CREATE INDEX fields_collection_position_idx ON fields(collection_id, position);
CREATE INDEX collections_project_idx ON collections(project_id);
