-- Which namespace holds a charge, by its transaction reference alone: a customer page's URL names
-- the reference (and maybe the namespace's page id), never the key, and a process that does not
-- serve the namespace forwards the page to the one that does (src/cluster.ts).
CREATE INDEX sandbox_records_charge_key ON sandbox_records (key) WHERE collection = 'charges';
