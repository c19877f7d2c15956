-- Fair shares of storage per account (issue 40). An account is `u{user}` or, for a member of a
-- business, `b{business}`, as acme_orders.account. Every upload written since is a row here,
-- charged to its folder's account; storage_usage holds each account's totals, raised by the
-- upload's own transaction only while the quota holds (under the row's lock), so concurrent
-- uploads on any number of control planes cannot pass it. seen_at is when the upload was made
-- (or made again), or last found in use: the collector deletes an upload nothing references
-- once its grace has passed since then, and gives its bytes back in the transaction that claims
-- it.
CREATE TABLE uploads (
    object_key  TEXT PRIMARY KEY,
    account     TEXT NOT NULL,
    bytes       {{int}} NOT NULL,
    seen_at     {{time}} NOT NULL
);
CREATE INDEX uploads_seen_idx ON uploads(seen_at);
CREATE TABLE storage_usage (
    account  TEXT PRIMARY KEY,
    bytes    {{int}} NOT NULL DEFAULT 0,
    objects  {{int}} NOT NULL DEFAULT 0
);
