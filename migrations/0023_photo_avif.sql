-- Photos whose AVIF variants are still to be made (issue 44). An upload answers once its
-- original, placeholder, WebP and fallback variants are stored; its AVIF variants are made
-- after, in the background and in the uploader's share of the workers
-- (`control-plane/src/photos/avif.rs`), which adds them to `variants` and clears this. A
-- restart leaves the flag set, and the next pass makes them.
ALTER TABLE photos ADD COLUMN avif_pending {{bool}} NOT NULL DEFAULT {{false}};
CREATE INDEX photos_avif_pending ON photos (object_key) WHERE avif_pending = {{true}};
