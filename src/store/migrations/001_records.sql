-- The store's records (docs/architecture.md, "The store"): one row per record of a collection of a
-- namespace, its JSON text as the store keeps it (text, not jsonb: the order of its keys is part of
-- the answers). `seq` is the order a key was first written, the order a data file holds them in,
-- which the collections' kept orders are rebuilt from at start.
CREATE TABLE sandbox_records (
  ns text NOT NULL,
  collection text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  seq bigserial NOT NULL,
  PRIMARY KEY (ns, collection, key)
);
CREATE INDEX sandbox_records_seq ON sandbox_records (ns, seq);

-- What the store says of itself: `format`, the records' format (the data file's `paysandbox`).
CREATE TABLE sandbox_meta (
  name text PRIMARY KEY,
  value text NOT NULL
);
