-- Table states (6 KB of JSON each, rewritten by every command) compressed with lz4 rather
-- than pglz: about as small here, several times cheaper to compress and decompress.
-- Only values written from now on change. A server built without lz4 keeps pglz.
DO $$
BEGIN
    ALTER TABLE table_states ALTER COLUMN state SET COMPRESSION lz4;
    ALTER TABLE table_checkpoints ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available: table states stay pglz-compressed';
END;
$$;
