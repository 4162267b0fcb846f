-- Let the caller decide whether an append notifies from inside its transaction.
--
-- PostgreSQL serialises the commits of transactions that issued NOTIFY: PreCommit_Notify
-- takes a server-wide lock ("database 0") and holds it through the commit's WAL flush, so
-- notifying from every append turned every command into a turn at one global lock
-- (measured: about half the appends per second from 8 connections; the cap is 1 / fsync
-- latency). events.store.append now notifies after its own commit, as a separate statement
-- that changes no data and so waits for no flush; inside a caller's transaction the caller
-- may pass notify=False and call events.store.notify once it has committed.

DROP FUNCTION event_store_append(
    text[], bigint[], int[], int[], int[], uuid[], text[], int[], text[], text[], text, text, text
);

-- One append, whole, in one statement (and so in one round trip and one transaction, or
-- inside the caller's). The client sorts the streams; locking them in that order keeps
-- two multi-stream appends from deadlocking. Events arrive as parallel arrays with, per
-- event, the index of its stream in p_stream_ids and its 1-based offset in that stream.
-- Failures are raised with SQLSTATE ES001 (wrong expected version) or ES002 (duplicate
-- command) and a JSON DETAIL; either aborts the statement, so nothing is appended.
-- p_notify: send NOTIFY from this transaction (see above for the cost).
CREATE FUNCTION event_store_append(
    p_stream_ids      text[],
    p_expected        bigint[],
    p_counts          int[],
    p_stream_index    int[],
    p_offsets         int[],
    p_event_ids       uuid[],
    p_event_types     text[],
    p_schema_versions int[],
    p_data            text[],
    p_metadata        text[],
    p_command_id      text,
    p_command_stream  text,
    p_command_result  text,
    p_notify          boolean
) RETURNS TABLE (
    event_id        uuid,
    global_position bigint,
    tx_id           xid8,
    stream_version  bigint,
    recorded_at     timestamptz
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_base    bigint[] := '{}';
    v_version bigint;
    v_stored  jsonb;
BEGIN
    -- The command goes first: a retry of a command that already succeeded would otherwise
    -- report the (expected) version conflict its own first run caused, and a concurrent
    -- twin waits here on the primary key before it takes any stream lock.
    IF p_command_id IS NOT NULL THEN
        INSERT INTO commands (command_id, stream_id, result)
        VALUES (p_command_id, p_command_stream, coalesce(p_command_result::jsonb, 'null'))
        ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            SELECT c.result INTO v_stored FROM commands AS c WHERE c.command_id = p_command_id;
            RAISE EXCEPTION 'command % was already recorded', p_command_id
                USING ERRCODE = 'ES002', DETAIL = coalesce(v_stored, 'null')::text;
        END IF;
    END IF;

    FOR i IN 1 .. coalesce(cardinality(p_stream_ids), 0) LOOP
        v_version := NULL;
        IF p_expected[i] IS NULL THEN
            INSERT INTO streams AS s (stream_id, version) VALUES (p_stream_ids[i], p_counts[i])
            ON CONFLICT (stream_id) DO UPDATE SET version = s.version + excluded.version
            RETURNING s.version INTO v_version;
        ELSIF p_expected[i] = 0 THEN
            INSERT INTO streams (stream_id, version) VALUES (p_stream_ids[i], p_counts[i])
            ON CONFLICT DO NOTHING
            RETURNING version INTO v_version;
        ELSE
            UPDATE streams AS s SET version = s.version + p_counts[i]
            WHERE s.stream_id = p_stream_ids[i] AND s.version = p_expected[i]
            RETURNING s.version INTO v_version;
        END IF;
        IF v_version IS NULL THEN
            -- A fresh statement, so under READ COMMITTED it sees the winner's commit.
            SELECT s.version INTO v_version FROM streams AS s WHERE s.stream_id = p_stream_ids[i];
            RAISE EXCEPTION 'stream % is at version %, expected %',
                    p_stream_ids[i], coalesce(v_version, 0), p_expected[i]
                USING ERRCODE = 'ES001',
                      DETAIL = json_build_object(
                          'stream_id', p_stream_ids[i],
                          'expected', p_expected[i],
                          'actual', coalesce(v_version, 0)
                      )::text;
        END IF;
        v_base := v_base || (v_version - p_counts[i]);
    END LOOP;

    RETURN QUERY
    INSERT INTO events AS e
        (stream_id, stream_version, event_id, event_type, schema_version, data, metadata)
    SELECT p_stream_ids[n.stream_index], v_base[n.stream_index] + n.stream_offset,
           n.event_id, n.event_type, n.schema_version, n.data::jsonb, n.metadata::jsonb
    FROM unnest(p_stream_index, p_offsets, p_event_ids, p_event_types, p_schema_versions,
                p_data, p_metadata)
         WITH ORDINALITY
         AS n(stream_index, stream_offset, event_id, event_type, schema_version, data,
              metadata, ord)
    ORDER BY n.ord
    RETURNING e.event_id, e.global_position, e.tx_id, e.stream_version, e.recorded_at;

    -- Delivered at commit only, and collapsed per (channel, payload) within a transaction.
    IF p_notify THEN
        PERFORM pg_notify('events', sid) FROM unnest(p_stream_ids) AS sid;
    END IF;
END;
$$;
