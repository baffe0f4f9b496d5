-- A group of changes in one round trip (src/store/pg-log.ts): the fence first (every namespace
-- written is still leased to the writer, its lease row held FOR SHARE so a takeover waits for this
-- transaction), then the puts and the deletes. False, and nothing written, when a lease is gone.
-- A group with a reset is written as a transaction of several statements instead.
CREATE FUNCTION sandbox_write(writer text, namespaces text[], pn text[], pc text[], pk text[], pv text[], dn text[], dc text[], dk text[])
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM sandbox_leases
      WHERE ns = ANY(namespaces) AND owner = writer AND deadline > now() FOR SHARE) AS held) < cardinality(namespaces) THEN
    RETURN false;
  END IF;
  INSERT INTO sandbox_records (ns, collection, key, value) SELECT * FROM unnest(pn, pc, pk, pv)
    ON CONFLICT (ns, collection, key) DO UPDATE SET value = excluded.value;
  DELETE FROM sandbox_records WHERE (ns, collection, key) IN (SELECT * FROM unnest(dn, dc, dk));
  RETURN true;
END
$$;
