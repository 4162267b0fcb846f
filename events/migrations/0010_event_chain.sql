-- A tamper-evident event log: every event's hash covers its content and the hash of the
-- event before it in its stream, and signed checkpoints commit to the stream heads.
-- docs/audit.md ("Tamper-evident log") specifies the bytes; service/chain/hashing.py is the
-- verifier's independent re-implementation (it never calls event_chain_hash).

-- The trigger hashes text in the database's encoding (textsend: no conversion per call,
-- the cheaper by far), which is UTF-8 only in a UTF8 database.
DO $$
BEGIN
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RAISE EXCEPTION 'the event chain needs a UTF8 database, this one is %',
            current_setting('server_encoding');
    END IF;
END;
$$;

ALTER TABLE events ADD COLUMN prev_hash bytea, ADD COLUMN hash bytea;

-- The event hash (docs/audit.md), for insiders' and tests' use: the trigger below spells
-- the same expression out (a SQL function call costs it ~10 µs more per event: not inlined).
-- The verifier never uses either: it recomputes every hash in Python.
CREATE FUNCTION event_chain_hash(
    p_prev           bytea,
    p_stream_id      text,
    p_stream_version bigint,
    p_event_id       uuid,
    p_event_type     text,
    p_schema_version int,
    p_data           jsonb,
    p_metadata       jsonb,
    p_recorded_at    timestamptz
) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT sha256(
        p_prev
        || convert_to(p_stream_id, 'UTF8') || '\x00'::bytea
        || int8send(p_stream_version)
        || uuid_send(p_event_id)
        || convert_to(p_event_type, 'UTF8') || '\x00'::bytea
        || int4send(p_schema_version)
        || sha256(convert_to(p_data::text, 'UTF8'))
        || sha256(convert_to(p_metadata::text, 'UTF8'))
        -- Microseconds since the Unix epoch: timestamptz's own resolution, exactly.
        || int8send((extract(epoch FROM p_recorded_at) * 1000000)::bigint)
    )
$$;

-- Every writer chains, however it inserts (event_store_append, a direct INSERT, a
-- restore): the trigger overwrites whatever prev_hash and hash the INSERT gave. It runs per
-- row, and SQL in a BEFORE ROW trigger sees the rows the same statement inserted before
-- (PostgreSQL docs, "Visibility of Data Changes"), so a multi-event append chains within
-- itself. Appenders of one stream are serialised by the streams row lock (every append
-- updates streams first), so the previous event is committed or the appender's own.
CREATE FUNCTION events_chain() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF NEW.recorded_at IS NULL THEN
        NEW.recorded_at := now();
    END IF;
    IF NEW.stream_version = 1 THEN
        NEW.prev_hash := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
    ELSE
        SELECT e.hash INTO NEW.prev_hash FROM events AS e
        WHERE e.stream_id = NEW.stream_id AND e.stream_version = NEW.stream_version - 1;
        IF NEW.prev_hash IS NULL THEN
            RAISE EXCEPTION 'event % of stream % has no predecessor to chain to',
                NEW.stream_version, NEW.stream_id
                USING ERRCODE = 'ES003';
        END IF;
    END IF;
    -- event_chain_hash(NEW.*), inline: textsend is UTF-8 in a UTF8 database.
    NEW.hash := sha256(
        NEW.prev_hash
        || textsend(NEW.stream_id) || '\x00'::bytea
        || int8send(NEW.stream_version)
        || uuid_send(NEW.event_id)
        || textsend(NEW.event_type) || '\x00'::bytea
        || int4send(NEW.schema_version)
        || sha256(textsend(NEW.data::text))
        || sha256(textsend(NEW.metadata::text))
        || int8send((extract(epoch FROM NEW.recorded_at) * 1000000)::bigint)
    );
    RETURN NEW;
END;
$$;

-- Existing events, stream by stream in version order (each needs its predecessor's hash).
DO $$
DECLARE
    r      record;
    v_prev bytea;
    v_hash bytea;
    v_last text := NULL;
BEGIN
    FOR r IN
        SELECT global_position, stream_id, stream_version, event_id, event_type,
               schema_version, data, metadata, recorded_at
        FROM events ORDER BY stream_id, stream_version
    LOOP
        IF v_last IS DISTINCT FROM r.stream_id OR r.stream_version = 1 THEN
            v_prev := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
        END IF;
        v_hash := event_chain_hash(
            v_prev, r.stream_id, r.stream_version, r.event_id, r.event_type,
            r.schema_version, r.data, r.metadata, r.recorded_at
        );
        UPDATE events SET prev_hash = v_prev, hash = v_hash
        WHERE global_position = r.global_position;
        v_prev := v_hash;
        v_last := r.stream_id;
    END LOOP;
END;
$$;

ALTER TABLE events
    ALTER COLUMN prev_hash SET NOT NULL,
    ALTER COLUMN hash SET NOT NULL,
    ADD CONSTRAINT events_prev_hash_length CHECK (octet_length(prev_hash) = 32),
    ADD CONSTRAINT events_hash_length CHECK (octet_length(hash) = 32);

CREATE TRIGGER events_chain BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_chain();

-- Signed checkpoints (docs/audit.md): each commits to the head of every stream that
-- changed since the one before, and to the checkpoint before it.
CREATE TABLE chain_checkpoints (
    seq             bigint PRIMARY KEY CHECK (seq >= 1),
    created_at      timestamptz NOT NULL,
    -- The horizon: the checkpoint covers exactly the events with tx_id < upto_tx_id (the
    -- xmin of its snapshot: nothing below it can still commit).
    upto_tx_id      xid8 NOT NULL,
    -- The greatest global_position among the events it covers (0: none yet).
    upto_position   bigint NOT NULL,
    prev_digest     bytea NOT NULL CHECK (octet_length(prev_digest) = 32),
    leaf_count      bigint NOT NULL CHECK (leaf_count >= 0),
    merkle_root     bytea NOT NULL CHECK (octet_length(merkle_root) = 32),
    digest          bytea NOT NULL CHECK (octet_length(digest) = 32),
    key_id          text NOT NULL,
    signature       bytea NOT NULL CHECK (octet_length(signature) = 64)
);

CREATE TABLE chain_checkpoint_leaves (
    seq            bigint NOT NULL REFERENCES chain_checkpoints (seq),
    stream_id      text NOT NULL,
    stream_version bigint NOT NULL,
    hash           bytea NOT NULL,
    PRIMARY KEY (seq, stream_id)
);
