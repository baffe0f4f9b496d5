-- Which process serves a namespace (docs/architecture.md, "Several processes, one database"): one
-- row per namespace, its owner, the URL the owner is reached at, and the deadline (the database's
-- clock) after which another process may take it over. The owner renews it well before.
CREATE TABLE sandbox_leases (
  ns text PRIMARY KEY,
  owner text NOT NULL,
  url text NOT NULL,
  deadline timestamptz NOT NULL
);
