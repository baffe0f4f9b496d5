-- Every namespace of the deployment, by its merchant's record (one per namespace): the dashboard's
-- list of namespaces, through any process (Store.namespacesKnown), read without a scan of every record.
CREATE INDEX sandbox_records_namespace ON sandbox_records (ns) WHERE collection = 'meta' AND key = 'ns';
