--
-- PostgreSQL database dump
--

\restrict sJ3r0Nf0ORvXlJQmwtjIGtvOsYXiQuw1TESP930f30VkN0F1iiy4GIIuae1vnko

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: event_chain_hash(bytea, text, bigint, uuid, text, integer, jsonb, jsonb, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_chain_hash(p_prev bytea, p_stream_id text, p_stream_version bigint, p_event_id uuid, p_event_type text, p_schema_version integer, p_data jsonb, p_metadata jsonb, p_recorded_at timestamp with time zone) RETURNS bytea
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


--
-- Name: event_store_append(text[], bigint[], integer[], integer[], integer[], uuid[], text[], integer[], text[], text[], text, text, text, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.event_store_append(p_stream_ids text[], p_expected bigint[], p_counts integer[], p_stream_index integer[], p_offsets integer[], p_event_ids uuid[], p_event_types text[], p_schema_versions integer[], p_data text[], p_metadata text[], p_command_id text, p_command_stream text, p_command_result text, p_notify boolean) RETURNS TABLE(event_id uuid, global_position bigint, tx_id xid8, stream_version bigint, recorded_at timestamp with time zone)
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


--
-- Name: events_chain(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.events_chain() RETURNS trigger
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


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: abandoned_rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.abandoned_rounds (
    table_id text NOT NULL,
    round integer NOT NULL,
    reason text NOT NULL,
    after_s integer NOT NULL,
    phase text NOT NULL
);


--
-- Name: audit_rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_rounds (
    table_id text NOT NULL,
    round integer NOT NULL,
    game text NOT NULL,
    ruleset_fingerprint text NOT NULL,
    commitment text NOT NULL,
    seed text,
    opened_at timestamp with time zone NOT NULL,
    settled_at timestamp with time zone,
    opened_position bigint NOT NULL,
    settled_position bigint,
    players text[] DEFAULT '{}'::text[] NOT NULL,
    record jsonb NOT NULL
);


--
-- Name: audit_tables; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_tables (
    table_id text NOT NULL,
    game text NOT NULL,
    ruleset_fingerprint text NOT NULL
);


--
-- Name: availability_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.availability_log (
    global_position bigint NOT NULL,
    table_id text NOT NULL,
    operator_id text NOT NULL,
    shared boolean NOT NULL,
    kind text NOT NULL,
    actor_role text NOT NULL,
    actor_id text NOT NULL,
    reason text,
    ruleset_version integer NOT NULL,
    ruleset jsonb,
    command_id text,
    recorded_at timestamp with time zone NOT NULL,
    CONSTRAINT availability_log_kind_check CHECK ((kind = ANY (ARRAY['opened'::text, 'closed'::text, 'reopened'::text, 'ruleset_changed'::text])))
);


--
-- Name: chain_checkpoint_leaves; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chain_checkpoint_leaves (
    seq bigint NOT NULL,
    stream_id text NOT NULL,
    stream_version bigint NOT NULL,
    hash bytea NOT NULL
);


--
-- Name: chain_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chain_checkpoints (
    seq bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    upto_tx_id xid8 NOT NULL,
    upto_position bigint NOT NULL,
    prev_digest bytea NOT NULL,
    leaf_count bigint NOT NULL,
    merkle_root bytea NOT NULL,
    digest bytea NOT NULL,
    key_id text NOT NULL,
    signature bytea NOT NULL,
    CONSTRAINT chain_checkpoints_digest_check CHECK ((octet_length(digest) = 32)),
    CONSTRAINT chain_checkpoints_leaf_count_check CHECK ((leaf_count >= 0)),
    CONSTRAINT chain_checkpoints_merkle_root_check CHECK ((octet_length(merkle_root) = 32)),
    CONSTRAINT chain_checkpoints_prev_digest_check CHECK ((octet_length(prev_digest) = 32)),
    CONSTRAINT chain_checkpoints_seq_check CHECK ((seq >= 1)),
    CONSTRAINT chain_checkpoints_signature_check CHECK ((octet_length(signature) = 64))
);


--
-- Name: commands; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.commands (
    command_id text NOT NULL,
    stream_id text,
    recorded_at timestamp with time zone DEFAULT now(),
    result jsonb
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    global_position bigint NOT NULL,
    tx_id xid8 DEFAULT pg_current_xact_id() NOT NULL,
    stream_id text NOT NULL,
    stream_version bigint NOT NULL,
    event_id uuid NOT NULL,
    event_type text NOT NULL,
    schema_version integer NOT NULL,
    data jsonb NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    prev_hash bytea NOT NULL,
    hash bytea NOT NULL,
    CONSTRAINT events_hash_length CHECK ((octet_length(hash) = 32)),
    CONSTRAINT events_prev_hash_length CHECK ((octet_length(prev_hash) = 32)),
    CONSTRAINT events_stream_version_check CHECK ((stream_version >= 1))
);


--
-- Name: events_global_position_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN global_position ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_global_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: game_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_sessions (
    session_id text NOT NULL,
    operator_id text NOT NULL,
    player_id text NOT NULL,
    currency text NOT NULL,
    table_id text,
    language text,
    lobby_url text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    ended_at timestamp with time zone
);


--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    scope text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer,
    response jsonb,
    created_at timestamp with time zone DEFAULT now()
);


--
-- Name: ledger; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger (
    global_position bigint NOT NULL,
    wallet_id text NOT NULL,
    event_type text NOT NULL,
    amount bigint NOT NULL,
    reason text,
    table_id text,
    round integer,
    box integer,
    transfer_id text,
    balance_after bigint NOT NULL,
    recorded_at timestamp with time zone NOT NULL
);


--
-- Name: operator_credentials; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.operator_credentials (
    key_id text NOT NULL,
    operator_id text NOT NULL,
    role text NOT NULL,
    label text NOT NULL,
    secret_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text NOT NULL,
    expires_at timestamp with time zone,
    revoked_at timestamp with time zone,
    last_used_at timestamp with time zone,
    CONSTRAINT operator_credentials_role_check CHECK ((role = ANY (ARRAY['operator'::text, 'auditor'::text])))
);


--
-- Name: operators; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.operators (
    operator_id text NOT NULL,
    name text NOT NULL,
    currencies text[] NOT NULL,
    wallet_mode text NOT NULL,
    wallet_url text,
    wallet_secret text,
    timeout_ms integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT operators_check CHECK (((wallet_mode = 'internal'::text) OR ((wallet_url IS NOT NULL) AND (wallet_secret IS NOT NULL) AND (timeout_ms IS NOT NULL)))),
    CONSTRAINT operators_timeout_ms_check CHECK (((timeout_ms >= 100) AND (timeout_ms <= 30000))),
    CONSTRAINT operators_wallet_mode_check CHECK ((wallet_mode = ANY (ARRAY['internal'::text, 'seamless'::text])))
);


--
-- Name: projection_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projection_checkpoints (
    name text NOT NULL,
    tx_id xid8 DEFAULT '0'::xid8 NOT NULL,
    global_position bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone
);


--
-- Name: round_boxes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.round_boxes (
    table_id text NOT NULL,
    round integer NOT NULL,
    box integer NOT NULL,
    player text NOT NULL,
    settled_at timestamp with time zone DEFAULT now() NOT NULL,
    detail jsonb NOT NULL,
    staked bigint NOT NULL,
    paid_back bigint NOT NULL
);


--
-- Name: rounds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rounds (
    table_id text NOT NULL,
    round integer NOT NULL,
    settled_at timestamp with time zone DEFAULT now() NOT NULL,
    commitment text NOT NULL,
    seed text NOT NULL,
    dealer_cards text[] NOT NULL,
    dealer_hand text,
    staked bigint NOT NULL,
    paid_back bigint NOT NULL,
    players text[] NOT NULL,
    ruleset_fingerprint text
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snapshots (
    stream_id text NOT NULL,
    version bigint NOT NULL,
    state bytea NOT NULL,
    updated_at timestamp with time zone DEFAULT now()
);


--
-- Name: streams; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.streams (
    stream_id text NOT NULL,
    version bigint NOT NULL,
    CONSTRAINT streams_version_check CHECK ((version >= 0))
);


--
-- Name: table_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.table_checkpoints (
    table_id text NOT NULL,
    version bigint NOT NULL,
    state bytea NOT NULL
);
ALTER TABLE ONLY public.table_checkpoints ALTER COLUMN state SET COMPRESSION lz4;


--
-- Name: table_notifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.table_notifications (
    operator_id text NOT NULL,
    notification_id text NOT NULL,
    table_id text NOT NULL,
    status text NOT NULL,
    reason text,
    actor_role text NOT NULL,
    actor_id text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    state text DEFAULT 'queued'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text,
    http_status integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone,
    CONSTRAINT table_notifications_state_check CHECK ((state = ANY (ARRAY['queued'::text, 'delivered'::text, 'manual'::text]))),
    CONSTRAINT table_notifications_status_check CHECK ((status = ANY (ARRAY['closed'::text, 'open'::text])))
);


--
-- Name: table_states; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.table_states (
    table_id text NOT NULL,
    version bigint NOT NULL,
    name text NOT NULL,
    game text NOT NULL,
    status text NOT NULL,
    currency text NOT NULL,
    state bytea NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    operator_id text DEFAULT 'default'::text NOT NULL,
    shared boolean DEFAULT false NOT NULL
);
ALTER TABLE ONLY public.table_states ALTER COLUMN state SET COMPRESSION lz4;


--
-- Name: test_decks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.test_decks (
    table_id text NOT NULL,
    deck text[] NOT NULL
);


--
-- Name: timers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.timers (
    timer_key text NOT NULL,
    table_id text NOT NULL,
    due_at timestamp with time zone NOT NULL,
    command jsonb NOT NULL
);


--
-- Name: wallet_transactions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallet_transactions (
    seq bigint NOT NULL,
    operator_id text NOT NULL,
    transaction_id text NOT NULL,
    kind text NOT NULL,
    player_id text NOT NULL,
    session_id text NOT NULL,
    currency text NOT NULL,
    amount bigint NOT NULL,
    reason text NOT NULL,
    table_id text NOT NULL,
    round integer NOT NULL,
    box integer NOT NULL,
    round_closed boolean DEFAULT false NOT NULL,
    reference_transaction_id text,
    reference_transaction_ids text[],
    command_id text,
    attempt_id uuid,
    status text NOT NULL,
    answer_status text,
    operator_transaction_id text,
    balance_after bigint,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT wallet_transactions_amount_check CHECK ((amount >= 0)),
    CONSTRAINT wallet_transactions_kind_check CHECK ((kind = ANY (ARRAY['bet'::text, 'win'::text, 'rollback'::text]))),
    CONSTRAINT wallet_transactions_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'committed'::text, 'refused'::text, 'rolled_back'::text, 'queued'::text, 'delivered'::text, 'manual'::text])))
);


--
-- Name: wallet_transactions_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.wallet_transactions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: wallet_transactions_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.wallet_transactions_seq_seq OWNED BY public.wallet_transactions.seq;


--
-- Name: wallets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.wallets (
    wallet_id text NOT NULL,
    currency text NOT NULL,
    balance bigint NOT NULL,
    version bigint NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT wallets_balance_check CHECK ((balance >= 0))
);


--
-- Name: wallet_transactions seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_transactions ALTER COLUMN seq SET DEFAULT nextval('public.wallet_transactions_seq_seq'::regclass);


--
-- Data for Name: abandoned_rounds; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: audit_rounds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.audit_rounds VALUES ('acme.vip', 2, 'russian', '73c859d5d3bb2ce9', 'e69bbd77b23724fe0bf83205f6d4886502d49b0a4253c6d95b99ee862b0cdb03', '98cb6605fee091e90e249f0c155cb38b94fdd4a1291989dd2b8798a893f97dd5', '2026-12-02 09:06:36.223068+00', '2026-12-02 09:06:36.33465+00', 30, 50, '{acme:bob,acme:ann}', '{"boxes": [{"bet": 0, "box": 3, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": [], "dealt": [], "drawn": [], "player": "acme:bob", "decision": null, "cancelled": true, "discarded": [], "insurance": 0, "settlement": null, "client_seed": null, "dealer_draw": null, "bonus_result": null}, {"bet": 0, "box": 2, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": ["Js", "Jd", "Jh", "4c", "8d"], "dealt": ["Js", "Jd", "Jh", "4c", "8d"], "drawn": [], "player": "acme:ann", "decision": "fold", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 2, "won": 0, "hand": "three_of_a_kind", "cards": ["Js", "Jd", "Jh", "4c", "8d"], "round": 2, "capped": 0, "player": "acme:ann", "outcome": "folded", "returned": 0, "dealer_draw": false, "combinations": []}, "client_seed": null, "dealer_draw": null, "bonus_result": null}, {"bet": 600, "box": 1, "ante": 300, "dark": false, "fees": 0, "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "dealt": ["Qs", "Qd", "Qh", "5c", "7d"], "drawn": [], "player": "acme:bob", "decision": "play", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 1, "won": 1800, "hand": "three_of_a_kind", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 2, "capped": 0, "player": "acme:bob", "outcome": "won", "returned": 900, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": "pair", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "dealt": ["9s", "9c", "Ah", "Kd", "2h"], "replaced": [], "qualifies": true}, "totals": {"paid": 2800, "house": -1700, "staked": 1100}, "wallets": {"acme:ann": {"after": 51600, "before": 51700, "debited": 100, "credited": 0, "last_version": 8, "first_version": 8}, "acme:bob": {"after": 21400, "before": 19600, "debited": 1000, "credited": 2800, "last_version": 11, "first_version": 7}}, "commands": [{"at": "2026-12-02T09:06:36.223068+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 30, "command_id": "acme.vip/acme:bob:k9/open-round", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}, {"at": "2026-12-02T09:06:36.241394+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 34, "command_id": "acme.vip/acme:bob:k10", "request_id": "852845b2-e25a-41cf-a959-8b90f0f56921"}, {"at": "2026-12-02T09:06:36.251894+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "type": "CancelBets"}, "position": 36, "command_id": "acme.vip/acme:bob:k11", "request_id": "30f2525c-7259-45c5-9f5c-021ea3e2c791"}, {"at": "2026-12-02T09:06:36.259632+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 38, "command_id": "acme.vip/acme:ann:k12", "request_id": "ef4547ef-fed4-4ceb-b7b6-399d4f9f8d2c"}, {"at": "2026-12-02T09:06:36.267515+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 300, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 40, "command_id": "acme.vip/acme:bob:k13", "request_id": "dfcda2d0-e02c-4957-923f-e3f1cd97b177"}, {"at": "2026-12-02T09:06:36.275521+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "position": 42, "command_id": "acme.vip/acme:ann:k14", "request_id": "c5d0db6a-f7c8-4583-a3bb-93f3453cec55"}, {"at": "2026-12-02T09:06:36.288491+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "position": 43, "command_id": "acme.vip/acme:bob:k15", "request_id": "88aeb6cd-044f-4c04-b9b3-d5789b78ccc4"}, {"at": "2026-12-02T09:06:36.322510+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "type": "Fold"}, "position": 45, "command_id": "acme.vip/acme:ann:k16", "request_id": "3e81fc0e-f78a-48e9-8e5c-7627a2eac173"}, {"at": "2026-12-02T09:06:36.334650+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "position": 46, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}]}');
INSERT INTO public.audit_rounds VALUES ('acme.vip', 1, 'russian', '73c859d5d3bb2ce9', '70e8d047f2038c959e30f3a5f6adeb402a2ba1ff0e61b9f0489ca0c9254ed77f', 'aa41eaa3bb8c97e57c2cc48ad43590661f06aafe2f8503dc79648a3821ed8a93', '2026-12-02 09:06:36.075284+00', '2026-12-02 09:06:36.223068+00', 7, 29, '{acme:ann,acme:bob}', '{"boxes": [{"bet": 400, "box": 2, "ante": 200, "dark": false, "fees": 0, "bonus": 100, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "dealt": ["Qs", "Qd", "Qh", "5c", "7d"], "drawn": [], "player": "acme:ann", "decision": "play", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 2, "won": 1200, "hand": "three_of_a_kind", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 1, "capped": 0, "player": "acme:ann", "outcome": "won", "returned": 600, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "client_seed": null, "dealer_draw": null, "bonus_result": {"won": 500, "hand": "three_of_a_kind", "stake": 100, "capped": 0}}, {"bet": 200, "box": 1, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": ["Js", "Jd", "Jh", "4c", "8d"], "dealt": ["Js", "Jd", "Jh", "4c", "8d"], "drawn": [], "player": "acme:bob", "decision": "play", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 1, "won": 600, "hand": "three_of_a_kind", "cards": ["Js", "Jd", "Jh", "4c", "8d"], "round": 1, "capped": 0, "player": "acme:bob", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Js", "Jh", "Jd"], "category": "three_of_a_kind"}]}, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": "pair", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "dealt": ["9s", "9c", "Ah", "Kd", "2h"], "replaced": [], "qualifies": true}, "totals": {"paid": 3300, "house": -2300, "staked": 1000}, "wallets": {"acme:ann": {"after": 51700, "before": 50000, "debited": 700, "credited": 2400, "last_version": 7, "first_version": 3}, "acme:bob": {"after": 19600, "before": 19000, "debited": 300, "credited": 900, "last_version": 6, "first_version": 4}}, "commands": [{"at": "2026-12-02T09:06:36.075284+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 7, "command_id": "1dfe7b3a-1798-4079-9f62-00c2936e5461/open-round", "request_id": null}, {"at": "2026-12-02T09:06:36.143779+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 200, "dark": false, "type": "PlaceAnte", "bonus": 100, "client_seed": null}, "position": 13, "command_id": "acme.vip/acme:ann:k4", "request_id": "b1d22d2a-8cd5-4ce2-acaf-0c770ef384db"}, {"at": "2026-12-02T09:06:36.167327+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 16, "command_id": "acme.vip/acme:bob:k5", "request_id": "a50b6af0-b87d-4668-9041-5c8afd374222"}, {"at": "2026-12-02T09:06:36.177136+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "position": 18, "command_id": "acme.vip/acme:ann:k6", "request_id": "3ea338c4-4c1c-4dd3-8aa7-bd697563c1f0"}, {"at": "2026-12-02T09:06:36.188368+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "position": 19, "command_id": "acme.vip/acme:bob:k7", "request_id": "b3038a2f-7839-4b56-9229-4a102c0aea73"}, {"at": "2026-12-02T09:06:36.211453+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "type": "Play"}, "position": 23, "command_id": "acme.vip/acme:ann:k8", "request_id": "901baae5-6fed-4605-b944-de10bd07d09f"}, {"at": "2026-12-02T09:06:36.223068+00:00", "actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "position": 25, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}]}');
INSERT INTO public.audit_rounds VALUES ('acme.vip', 3, 'russian', '73c859d5d3bb2ce9', '41d9566eb53207073eecea0d059d0d0acecd7c9e4b51e2a9db33abf7ea7c65e4', NULL, '2026-12-02 09:06:36.33465+00', NULL, 51, NULL, '{acme:ann}', '{"boxes": [{"bet": 0, "box": 1, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "dealt": ["Qs", "Qd", "Qh", "5c", "7d"], "drawn": [], "player": "acme:ann", "decision": null, "cancelled": false, "discarded": [], "insurance": 0, "settlement": null, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": null, "cards": ["9s", "9c", "Ah", "Kd", "2h"], "dealt": ["9s", "9c", "Ah", "Kd", "2h"], "replaced": [], "qualifies": null}, "totals": {"paid": 0, "house": 100, "staked": 100}, "wallets": {"acme:ann": {"after": 51500, "before": 51600, "debited": 100, "credited": 0, "last_version": 9, "first_version": 9}}, "commands": [{"at": "2026-12-02T09:06:36.334650+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 51, "command_id": "acme.vip/acme:bob:k17/open-round", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}, {"at": "2026-12-02T09:06:36.372211+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 54, "command_id": "acme.vip/acme:ann:k18", "request_id": "081e9357-3c68-400d-bf1a-d99054660fde"}, {"at": "2026-12-02T09:06:36.387192+00:00", "actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "position": 56, "command_id": "acme.vip/acme:ann:k19", "request_id": "c450914d-80c4-4006-bb46-fea0b9380457"}]}');
INSERT INTO public.audit_rounds VALUES ('beta.main', 1, 'oasis', 'b89847c8298553be', 'e6c494874e17dfced004f3665606da58e74fc6376475029354ca265d1a11097b', 'ea5426c73395d6760f76fcc832cee4ff01e3b8864b2c438f5251b229e799c65d', '2026-12-02 09:06:36.100508+00', '2026-12-02 09:06:36.511249+00', 9, 67, '{beta:cy}', '{"boxes": [{"bet": 200, "box": 1, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "dealt": ["Qs", "Qd", "Qh", "5c", "7d"], "drawn": [], "player": "beta:cy", "decision": "play", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 1, "won": 700, "hand": "three_of_a_kind", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 1, "capped": 0, "player": "beta:cy", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": "pair", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "dealt": ["9s", "9c", "Ah", "Kd", "2h"], "replaced": [], "qualifies": true}, "totals": {"paid": 1000, "house": -700, "staked": 300}, "wallets": {"beta:cy": {"after": null, "before": null, "debited": 300, "credited": 1000, "seamless": true, "last_version": 3, "first_version": 1}}, "commands": [{"at": "2026-12-02T09:06:36.100508+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 9, "command_id": "0000a471-1fc0-4bab-a7b8-f7e7063dffdd/open-round", "request_id": null}, {"at": "2026-12-02T09:06:36.458387+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 58, "command_id": "beta.main/beta:cy:k20", "request_id": "4f47360c-f390-4a59-b9ce-c7d7ca67cb77"}, {"at": "2026-12-02T09:06:36.473374+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "position": 60, "command_id": "beta.main/beta:cy:k21", "request_id": "a340a66b-fab2-46d7-8a0b-9f58b4f0f7a9"}, {"at": "2026-12-02T09:06:36.511249+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "position": 62, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}]}');
INSERT INTO public.audit_rounds VALUES ('beta.main', 2, 'oasis', 'b89847c8298553be', 'ca4f5da616afb7cd88e7b1a639697e80cfec8539809d05af2a06d91b4e17bc1a', '0f02fbd05e2000843ada5ef92568960392ec057cd2295e9ad87f462a69bfc0cb', '2026-12-02 09:06:36.511249+00', '2026-12-02 09:06:36.671591+00', 68, 78, '{beta:cy}', '{"boxes": [{"bet": 200, "box": 1, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "dealt": ["Qs", "Qd", "Qh", "5c", "7d"], "drawn": [], "player": "beta:cy", "decision": "play", "cancelled": false, "discarded": [], "insurance": 0, "settlement": {"box": 1, "won": 700, "hand": "three_of_a_kind", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 2, "capped": 0, "player": "beta:cy", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": "pair", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "dealt": ["9s", "9c", "Ah", "Kd", "2h"], "replaced": [], "qualifies": true}, "totals": {"paid": 1000, "house": -700, "staked": 300}, "wallets": {"beta:cy": {"after": null, "before": null, "debited": 300, "credited": 1000, "seamless": true, "last_version": 6, "first_version": 4}}, "commands": [{"at": "2026-12-02T09:06:36.511249+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 68, "command_id": "beta.main/beta:cy:k22/open-round", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}, {"at": "2026-12-02T09:06:36.573974+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 69, "command_id": "beta.main/beta:cy:k23", "request_id": "5e95d8fd-596d-4d74-88bc-0c26aca27feb"}, {"at": "2026-12-02T09:06:36.593266+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "position": 71, "command_id": "beta.main/beta:cy:k24", "request_id": "fe477dfc-8652-45ae-b9d1-0e1f788e44e3"}, {"at": "2026-12-02T09:06:36.671591+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "position": 73, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}]}');
INSERT INTO public.audit_rounds VALUES ('beta.main', 3, 'oasis', 'b89847c8298553be', '7d885e54285967bd328f2166d63f917d8fc1180f42a1b0c199d61e9e7046c428', NULL, '2026-12-02 09:06:36.671591+00', NULL, 79, NULL, '{beta:cy}', '{"boxes": [{"bet": 0, "box": 1, "ante": 100, "dark": false, "fees": 0, "bonus": 0, "cards": [], "dealt": [], "drawn": [], "player": "beta:cy", "decision": null, "cancelled": false, "discarded": [], "insurance": 0, "settlement": null, "client_seed": null, "dealer_draw": null, "bonus_result": null}], "dealer": {"hand": null, "cards": [], "dealt": [], "replaced": [], "qualifies": null}, "totals": {"paid": 0, "house": 100, "staked": 100}, "wallets": {"beta:cy": {"after": null, "before": null, "debited": 100, "credited": 0, "seamless": true, "last_version": 7, "first_version": 7}}, "commands": [{"at": "2026-12-02T09:06:36.671591+00:00", "actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "position": 79, "command_id": "beta.main/beta:cy:k25/open-round", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}, {"at": "2026-12-02T09:06:36.706575+00:00", "actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "position": 80, "command_id": "beta.main/beta:cy:k26", "request_id": "f967c6d3-5c11-4ebd-8435-5daa70c96d88"}]}');


--
-- Data for Name: audit_tables; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.audit_tables VALUES ('acme.vip', 'russian', '73c859d5d3bb2ce9');
INSERT INTO public.audit_tables VALUES ('beta.main', 'oasis', 'b89847c8298553be');


--
-- Data for Name: availability_log; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.availability_log VALUES (6, 'acme.vip', 'acme', false, 'opened', 'operator', 'staff', NULL, 1, '{"game": "russian", "boxes": 4, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": true, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": true, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": false, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": true, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 5, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}', '1dfe7b3a-1798-4079-9f62-00c2936e5461', '2026-12-02 09:06:36.075284+00');
INSERT INTO public.availability_log VALUES (8, 'beta.main', 'beta', false, 'opened', 'operator', 'staff', NULL, 1, '{"game": "oasis", "boxes": 6, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": false, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": false, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": true, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": false, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 1, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}', '0000a471-1fc0-4bab-a7b8-f7e7063dffdd', '2026-12-02 09:06:36.100508+00');


--
-- Data for Name: chain_checkpoint_leaves; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: chain_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: commands; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.commands VALUES ('open-wallet:acme:ann', 'wallet-acme:ann', '2026-12-02 09:06:35.950929+00', 'null');
INSERT INTO public.commands VALUES ('transfer:acme:ann:fund-ann', 'wallet-acme:ann', '2026-12-02 09:06:35.971309+00', '{"kind": "deposit", "amount": 50000, "balance": 50000, "duplicate": false, "wallet_id": "acme:ann", "transfer_id": "fund-ann"}');
INSERT INTO public.commands VALUES ('open-wallet:acme:bob', 'wallet-acme:bob', '2026-12-02 09:06:35.981856+00', 'null');
INSERT INTO public.commands VALUES ('transfer:acme:bob:fund-bob', 'wallet-acme:bob', '2026-12-02 09:06:35.989882+00', '{"kind": "deposit", "amount": 20000, "balance": 20000, "duplicate": false, "wallet_id": "acme:bob", "transfer_id": "fund-bob"}');
INSERT INTO public.commands VALUES ('transfer:acme:bob:cash-out-bob', 'wallet-acme:bob', '2026-12-02 09:06:36.000413+00', '{"kind": "withdrawal", "amount": 1000, "balance": 19000, "duplicate": false, "wallet_id": "acme:bob", "transfer_id": "cash-out-bob"}');
INSERT INTO public.commands VALUES ('1dfe7b3a-1798-4079-9f62-00c2936e5461', 'table-acme.vip', '2026-12-02 09:06:36.075284+00', '{"round": 1, "events": 2, "version": 2, "table_id": "acme.vip", "duplicate": false, "fingerprint": "55f9294a5f17d7c2912882379a42c87f656c00bc7a007a9709cc39f8993d9945"}');
INSERT INTO public.commands VALUES ('0000a471-1fc0-4bab-a7b8-f7e7063dffdd', 'table-beta.main', '2026-12-02 09:06:36.100508+00', '{"round": 1, "events": 2, "version": 2, "table_id": "beta.main", "duplicate": false, "fingerprint": "57a74a5b1285e9dbc0b272b203f66530ab7aca4584bf513acfaedf63c67c9c14"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k1', 'table-acme.vip', '2026-12-02 09:06:36.112267+00', '{"round": 1, "events": 1, "version": 3, "table_id": "acme.vip", "duplicate": false, "fingerprint": "45003c4b15543f9c510be34b6510201e2b2a582993adb3607e760b732a52eef5"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k2', 'table-acme.vip', '2026-12-02 09:06:36.123792+00', '{"round": 1, "events": 1, "version": 4, "table_id": "acme.vip", "duplicate": false, "fingerprint": "45003c4b15543f9c510be34b6510201e2b2a582993adb3607e760b732a52eef5"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k3', 'table-beta.main', '2026-12-02 09:06:36.130599+00', '{"round": 1, "events": 1, "version": 3, "table_id": "beta.main", "duplicate": false, "fingerprint": "45003c4b15543f9c510be34b6510201e2b2a582993adb3607e760b732a52eef5"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k4', 'table-acme.vip', '2026-12-02 09:06:36.143779+00', '{"round": 1, "events": 3, "version": 5, "table_id": "acme.vip", "duplicate": false, "fingerprint": "9285ecf86a60b62f4abe8dc3a775521aa45f8bf7e662a420b6ec87d3139c5fa5"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k5', 'table-acme.vip', '2026-12-02 09:06:36.167327+00', '{"round": 1, "events": 2, "version": 6, "table_id": "acme.vip", "duplicate": false, "fingerprint": "e01ce158068e160f9f6c2c0a0c62b09febe356e1debd83f4ee4e1026d4ae4751"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k6', 'table-acme.vip', '2026-12-02 09:06:36.177136+00', '{"round": 1, "events": 1, "version": 7, "table_id": "acme.vip", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k7', 'table-acme.vip', '2026-12-02 09:06:36.188368+00', '{"round": 1, "events": 4, "version": 10, "table_id": "acme.vip", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k8', 'table-acme.vip', '2026-12-02 09:06:36.211453+00', '{"round": 1, "events": 2, "version": 11, "table_id": "acme.vip", "duplicate": false, "fingerprint": "2f28e7471c742ee27e2f4a83c814106ee326e743bad0126eb36764b7b3f98dba"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k9', 'table-acme.vip', '2026-12-02 09:06:36.223068+00', '{"round": 2, "events": 9, "version": 17, "table_id": "acme.vip", "duplicate": false, "fingerprint": "554e4357427fe8796ab2bff8e110eb03a944af8457bdd4677270620a3930f844"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k10', 'table-acme.vip', '2026-12-02 09:06:36.241394+00', '{"round": 2, "events": 2, "version": 18, "table_id": "acme.vip", "duplicate": false, "fingerprint": "76be663677bbcce9cbd48e102b48e188795d03e751d8147a0c6bd457d79c4c9c"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k11', 'table-acme.vip', '2026-12-02 09:06:36.251894+00', '{"round": 2, "events": 2, "version": 19, "table_id": "acme.vip", "duplicate": false, "fingerprint": "1cc80336d8a4a947b56358ee55fbab7f80c88f516a9f7de20f26a5fccb55c950"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k12', 'table-acme.vip', '2026-12-02 09:06:36.259632+00', '{"round": 2, "events": 2, "version": 20, "table_id": "acme.vip", "duplicate": false, "fingerprint": "72b5488bd644308b06271cd8a1f7a00826a96f986f41303fd85e822268730a6b"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k13', 'table-acme.vip', '2026-12-02 09:06:36.267515+00', '{"round": 2, "events": 2, "version": 21, "table_id": "acme.vip", "duplicate": false, "fingerprint": "2427983e0f591b6fb1eb8ce779328cd471b62d0be0ef97a04a9db36c5e9f520a"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k14', 'table-acme.vip', '2026-12-02 09:06:36.275521+00', '{"round": 2, "events": 1, "version": 22, "table_id": "acme.vip", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k15', 'table-acme.vip', '2026-12-02 09:06:36.288491+00', '{"round": 2, "events": 2, "version": 24, "table_id": "acme.vip", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k16', 'table-acme.vip', '2026-12-02 09:06:36.32251+00', '{"round": 2, "events": 1, "version": 25, "table_id": "acme.vip", "duplicate": false, "fingerprint": "77ba012c73901c2dbfcddb13647050f8b5f6d8fea2fc6bec3b84e0c5867fe499"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:bob:k17', 'table-acme.vip', '2026-12-02 09:06:36.33465+00', '{"round": 3, "events": 8, "version": 31, "table_id": "acme.vip", "duplicate": false, "fingerprint": "554e4357427fe8796ab2bff8e110eb03a944af8457bdd4677270620a3930f844"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k18', 'table-acme.vip', '2026-12-02 09:06:36.372211+00', '{"round": 3, "events": 2, "version": 32, "table_id": "acme.vip", "duplicate": false, "fingerprint": "e01ce158068e160f9f6c2c0a0c62b09febe356e1debd83f4ee4e1026d4ae4751"}');
INSERT INTO public.commands VALUES ('acme.vip/acme:ann:k19', 'table-acme.vip', '2026-12-02 09:06:36.387192+00', '{"round": 3, "events": 2, "version": 34, "table_id": "acme.vip", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k20', 'table-beta.main', '2026-12-02 09:06:36.458387+00', '{"round": 1, "events": 2, "version": 4, "table_id": "beta.main", "duplicate": false, "fingerprint": "e01ce158068e160f9f6c2c0a0c62b09febe356e1debd83f4ee4e1026d4ae4751"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k21', 'table-beta.main', '2026-12-02 09:06:36.473374+00', '{"round": 1, "events": 2, "version": 6, "table_id": "beta.main", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k22', 'table-beta.main', '2026-12-02 09:06:36.511249+00', '{"round": 2, "events": 7, "version": 11, "table_id": "beta.main", "duplicate": false, "fingerprint": "554e4357427fe8796ab2bff8e110eb03a944af8457bdd4677270620a3930f844"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k23', 'table-beta.main', '2026-12-02 09:06:36.573974+00', '{"round": 2, "events": 2, "version": 12, "table_id": "beta.main", "duplicate": false, "fingerprint": "e01ce158068e160f9f6c2c0a0c62b09febe356e1debd83f4ee4e1026d4ae4751"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k24', 'table-beta.main', '2026-12-02 09:06:36.593266+00', '{"round": 2, "events": 2, "version": 14, "table_id": "beta.main", "duplicate": false, "fingerprint": "cfc6d51cd2b73b21814b1030d773b628abe745cce85bad19d71a78a1c65ae426"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k25', 'table-beta.main', '2026-12-02 09:06:36.671591+00', '{"round": 3, "events": 7, "version": 19, "table_id": "beta.main", "duplicate": false, "fingerprint": "554e4357427fe8796ab2bff8e110eb03a944af8457bdd4677270620a3930f844"}');
INSERT INTO public.commands VALUES ('beta.main/beta:cy:k26', 'table-beta.main', '2026-12-02 09:06:36.706575+00', '{"round": 3, "events": 2, "version": 20, "table_id": "beta.main", "duplicate": false, "fingerprint": "e01ce158068e160f9f6c2c0a0c62b09febe356e1debd83f4ee4e1026d4ae4751"}');


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (1, '576112', 'wallet-acme:ann', 1, '6766a411-a2e8-5858-a0d7-d25309b62def', 'WalletOpened', 1, '{"type": "WalletOpened", "currency": "EUR", "wallet_id": "acme:ann"}', '{"actor": {"id": "staff", "role": "operator"}, "command_id": "open-wallet:acme:ann"}', '2026-12-02 09:06:35.950929+00', '\x0000000000000000000000000000000000000000000000000000000000000000', '\xd470f4b9ce3cc050a287f0318375dedba962763d49bbfd2124e0d9d0b597090c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (2, '576113', 'wallet-acme:ann', 2, '78f806f0-a058-5ce3-90a4-64979c2d0a0d', 'FundsDeposited', 1, '{"type": "FundsDeposited", "amount": 50000, "wallet_id": "acme:ann", "transfer_id": "fund-ann"}', '{"actor": {"id": "staff", "role": "operator"}, "command_id": "transfer:acme:ann:fund-ann"}', '2026-12-02 09:06:35.971309+00', '\xd470f4b9ce3cc050a287f0318375dedba962763d49bbfd2124e0d9d0b597090c', '\x1c7083c19999915336149d7776ee9e3088306e66757c6b55672e1a4f3a5f736f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (3, '576114', 'wallet-acme:bob', 1, '380968ba-9ea5-5ac9-afd6-c948b693f871', 'WalletOpened', 1, '{"type": "WalletOpened", "currency": "EUR", "wallet_id": "acme:bob"}', '{"actor": {"id": "staff", "role": "operator"}, "command_id": "open-wallet:acme:bob"}', '2026-12-02 09:06:35.981856+00', '\x0000000000000000000000000000000000000000000000000000000000000000', '\xffe9fa0a3e2eca95fd769a01979f33f780abab03c70092ac2778e9e29f5fd4ef');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (4, '576115', 'wallet-acme:bob', 2, '5d023d48-d189-5839-a333-78a4fac02140', 'FundsDeposited', 1, '{"type": "FundsDeposited", "amount": 20000, "wallet_id": "acme:bob", "transfer_id": "fund-bob"}', '{"actor": {"id": "staff", "role": "operator"}, "command_id": "transfer:acme:bob:fund-bob"}', '2026-12-02 09:06:35.989882+00', '\xffe9fa0a3e2eca95fd769a01979f33f780abab03c70092ac2778e9e29f5fd4ef', '\xb3967d58426fb8c681fceee14f03a30a5742ac2154f0e13483c51693cb54d83a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (5, '576116', 'wallet-acme:bob', 3, 'fce26aa7-ceda-5725-b71d-320241acda4d', 'FundsWithdrawn', 1, '{"type": "FundsWithdrawn", "amount": 1000, "wallet_id": "acme:bob", "transfer_id": "cash-out-bob"}', '{"actor": {"id": "staff", "role": "operator"}, "command_id": "transfer:acme:bob:cash-out-bob"}', '2026-12-02 09:06:36.000413+00', '\xb3967d58426fb8c681fceee14f03a30a5742ac2154f0e13483c51693cb54d83a', '\x2c0d0e53713d5e3a8086d16069f87333880515cb27f9e1282fed06fb4aea69ff');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (6, '576124', 'table-acme.vip', 1, '3ba5b606-19ea-57e7-bfba-3d6126f56042', 'TableOpened', 1, '{"name": "", "type": "TableOpened", "reason": null, "shared": false, "ruleset": {"game": "russian", "boxes": 4, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": true, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": true, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": false, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": true, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 5, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}, "table_id": "acme.vip", "operator_id": "acme", "private_for": null}', '{"actor": {"id": "staff", "role": "operator"}, "command": {"name": "", "type": "OpenTable", "reason": null, "shared": false, "ruleset": {"game": "russian", "boxes": 4, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": true, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": true, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": false, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": true, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 5, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}, "operator_id": "acme", "private_for": null}, "command_id": "1dfe7b3a-1798-4079-9f62-00c2936e5461", "request_id": null}', '2026-12-02 09:06:36.075284+00', '\x0000000000000000000000000000000000000000000000000000000000000000', '\x97a27d9e1c744d28405cf1e979df3fe89ca9f2b622ff30d47e92b6a48f4989a9');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (7, '576124', 'table-acme.vip', 2, '38f10372-ac8d-5d5b-a04a-417b46242c4c', 'RoundOpened', 1, '{"deck": ["Qs", "Js", "9s", "Qd", "Jd", "9c", "Qh", "Jh", "Ah", "5c", "4c", "Kd", "7d", "8d", "2h"], "seed": "qkHqo7uMl+V8LMSK1DWQZh8Gqv4vhQPceWSKOCHtipM=", "type": "RoundOpened", "round": 1, "commitment": "70e8d047f2038c959e30f3a5f6adeb402a2ba1ff0e61b9f0489ca0c9254ed77f"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "1dfe7b3a-1798-4079-9f62-00c2936e5461/open-round", "request_id": null}', '2026-12-02 09:06:36.075284+00', '\x97a27d9e1c744d28405cf1e979df3fe89ca9f2b622ff30d47e92b6a48f4989a9', '\x1ab6b9b5d704ce675005090eb408a192ff151dd8ca7b69bded85a55afa734eb9');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (8, '576127', 'table-beta.main', 1, 'eea83322-d731-5999-84a1-47aa5c31064b', 'TableOpened', 1, '{"name": "", "type": "TableOpened", "reason": null, "shared": false, "ruleset": {"game": "oasis", "boxes": 6, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": false, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": false, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": true, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": false, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 1, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}, "table_id": "beta.main", "operator_id": "beta", "private_for": null}', '{"actor": {"id": "staff", "role": "operator"}, "command": {"name": "", "type": "OpenTable", "reason": null, "shared": false, "ruleset": {"game": "oasis", "boxes": 6, "ante_max": 10000, "ante_min": 100, "currency": "EUR", "bonus_max": 1000, "bonus_min": 100, "max_payout": null, "dealer_draw": false, "bet_paytable": {"ak": 1, "pair": 1, "flush": 5, "straight": 4, "two_pair": 2, "full_house": 7, "royal_flush": 100, "four_of_a_kind": 20, "straight_flush": 50, "three_of_a_kind": 3}, "player_seeds": true, "bonus_enabled": true, "insurance_max": "payout", "bonus_min_hand": "three_of_a_kind", "bonus_paytable": {"flush": 50, "straight": 40, "full_house": 70, "royal_flush": 1000, "four_of_a_kind": 200, "straight_flush": 500, "three_of_a_kind": 5}, "buy_sixth_card": false, "draw_fee_antes": [1, 1, 1, 1, 1], "ante_pays_on_win": true, "box_cards_public": false, "betting_timeout_s": 30, "decision_timeout_s": 30, "double_combination": false, "insurance_min_hand": "three_of_a_kind", "max_exchange_cards": 1, "dealer_redraw_limit": null, "sixth_card_fee_antes": 1, "light_boxes_per_player": 2, "abandoned_round_after_s": 86400, "discards_return_to_deck": true, "insurance_returned_after_dealer_draw": false, "straight_pair_counts_as_two_straights": true}, "operator_id": "beta", "private_for": null}, "command_id": "0000a471-1fc0-4bab-a7b8-f7e7063dffdd", "request_id": null}', '2026-12-02 09:06:36.100508+00', '\x0000000000000000000000000000000000000000000000000000000000000000', '\x3d998be6f46109bd15c519f34c0ad8331dac94eb14c1cd74c3623d436f06df1a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (9, '576127', 'table-beta.main', 2, '41df5cbb-9cee-5a3e-946a-314d5f0f43d0', 'RoundOpened', 1, '{"deck": ["Qs", "9s", "Qd", "9c", "Qh", "Ah", "5c", "Kd", "7d", "2h"], "seed": "6lQmxzOV1nYPdvzIMs7k/wHjuIZLLEOPUlGyKeeZxl0=", "type": "RoundOpened", "round": 1, "commitment": "e6c494874e17dfced004f3665606da58e74fc6376475029354ca265d1a11097b"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "0000a471-1fc0-4bab-a7b8-f7e7063dffdd/open-round", "request_id": null}', '2026-12-02 09:06:36.100508+00', '\x3d998be6f46109bd15c519f34c0ad8331dac94eb14c1cd74c3623d436f06df1a', '\x9652e9bc17846381e66ca91475e0f3e9119c3a0a20dc22a9e076dee7c1f65853');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (10, '576129', 'table-acme.vip', 3, 'fb21474b-a7fe-58ad-8153-a7a1d40767e6', 'PlayerSeated', 1, '{"seat": 1, "type": "PlayerSeated", "player": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"seat": null, "type": "SitDown"}, "command_id": "acme.vip/acme:ann:k1", "request_id": "24d878ea-b651-4b10-aedb-73208fae0601"}', '2026-12-02 09:06:36.112267+00', '\x1ab6b9b5d704ce675005090eb408a192ff151dd8ca7b69bded85a55afa734eb9', '\x937ca233d78464b6449fba1140e3406a4a9af81f552521226f7757ad2ca08dc2');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (11, '576131', 'table-acme.vip', 4, 'ee7535d9-dd75-537e-bec3-1b466f499a55', 'PlayerSeated', 1, '{"seat": 2, "type": "PlayerSeated", "player": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"seat": null, "type": "SitDown"}, "command_id": "acme.vip/acme:bob:k2", "request_id": "abb6e22d-cf16-4935-9942-863108f76749"}', '2026-12-02 09:06:36.123792+00', '\x937ca233d78464b6449fba1140e3406a4a9af81f552521226f7757ad2ca08dc2', '\x86d293917ac1125619d3c5688da6d241cc9683f88f76db3030bb3115a0c801a6');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (12, '576133', 'table-beta.main', 3, 'b60306b8-4fd1-576e-9138-ce5a1004cec4', 'PlayerSeated', 1, '{"seat": 1, "type": "PlayerSeated", "player": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"seat": null, "type": "SitDown"}, "command_id": "beta.main/beta:cy:k3", "request_id": "3451716a-9082-4988-ad1c-888bceedc300"}', '2026-12-02 09:06:36.130599+00', '\x9652e9bc17846381e66ca91475e0f3e9119c3a0a20dc22a9e076dee7c1f65853', '\x61ffdfb7d13cc4f639583752b0583479b75399cb047156961efd3dd6e33fed01');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (13, '576136', 'table-acme.vip', 5, '90cf351f-4e6a-551d-a473-b95c3716d04e', 'AntePlaced', 1, '{"bet": 0, "box": 2, "ante": 200, "dark": false, "type": "AntePlaced", "bonus": 100, "round": 1, "player": "acme:ann", "client_seed": null}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 200, "dark": false, "type": "PlaceAnte", "bonus": 100, "client_seed": null}, "command_id": "acme.vip/acme:ann:k4", "request_id": "b1d22d2a-8cd5-4ce2-acaf-0c770ef384db"}', '2026-12-02 09:06:36.143779+00', '\x86d293917ac1125619d3c5688da6d241cc9683f88f76db3030bb3115a0c801a6', '\x54331343a9c134b4a4eb065e714892c2850d8a40f5ec63ffa0999b36c95dc3bd');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (14, '576136', 'wallet-acme:ann', 3, 'f6a7e9f8-9576-5ee5-8a1a-4a71f52da5fe', 'WalletDebited', 1, '{"box": 2, "type": "WalletDebited", "round": 1, "amount": 200, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 200, "dark": false, "type": "PlaceAnte", "bonus": 100, "client_seed": null}, "command_id": "acme.vip/acme:ann:k4", "request_id": "b1d22d2a-8cd5-4ce2-acaf-0c770ef384db"}', '2026-12-02 09:06:36.143779+00', '\x1c7083c19999915336149d7776ee9e3088306e66757c6b55672e1a4f3a5f736f', '\xdedec2a1e517f1820e4fb03e4dc2fa6362dc6e2c7af934773e0fa1e82e5cad78');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (15, '576136', 'wallet-acme:ann', 4, 'd6ddcd03-955e-5c6e-9153-4c294c2f8217', 'WalletDebited', 1, '{"box": 2, "type": "WalletDebited", "round": 1, "amount": 100, "reason": "bonus", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 200, "dark": false, "type": "PlaceAnte", "bonus": 100, "client_seed": null}, "command_id": "acme.vip/acme:ann:k4", "request_id": "b1d22d2a-8cd5-4ce2-acaf-0c770ef384db"}', '2026-12-02 09:06:36.143779+00', '\xdedec2a1e517f1820e4fb03e4dc2fa6362dc6e2c7af934773e0fa1e82e5cad78', '\x8b85311ea58869c330ea1d214c052081896f87b5fc35989cc361727982685979');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (16, '576139', 'table-acme.vip', 6, '35c1c3f1-8ca7-5053-a44b-86421c65651a', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 1, "player": "acme:bob", "client_seed": null}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k5", "request_id": "a50b6af0-b87d-4668-9041-5c8afd374222"}', '2026-12-02 09:06:36.167327+00', '\x54331343a9c134b4a4eb065e714892c2850d8a40f5ec63ffa0999b36c95dc3bd', '\x09ad545f27fb3dd3d76df837f7ae87d7252c671d07c6a32aaa226527994eb004');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (17, '576139', 'wallet-acme:bob', 4, '040190f2-99ae-58ef-b028-ede115422a82', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 1, "amount": 100, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k5", "request_id": "a50b6af0-b87d-4668-9041-5c8afd374222"}', '2026-12-02 09:06:36.167327+00', '\x2c0d0e53713d5e3a8086d16069f87333880515cb27f9e1282fed06fb4aea69ff', '\xfea804d973b1a0ed8d0edf0a72a131abd3ec8f6bc29a5995add353e47bc00a46');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (18, '576141', 'table-acme.vip', 7, '7341694c-36ac-575b-9104-96d6e9966eed', 'DealRequested', 1, '{"type": "DealRequested", "round": 1, "player": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:ann:k6", "request_id": "3ea338c4-4c1c-4dd3-8aa7-bd697563c1f0"}', '2026-12-02 09:06:36.177136+00', '\x09ad545f27fb3dd3d76df837f7ae87d7252c671d07c6a32aaa226527994eb004', '\xfd116d55dcebbbd17673f1b09f2029567550767e2cb5788c298bab0decc11bbe');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (19, '576143', 'table-acme.vip', 8, '3174445f-1a3e-536f-99e9-e46648ad2e80', 'DealRequested', 1, '{"type": "DealRequested", "round": 1, "player": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k7", "request_id": "b3038a2f-7839-4b56-9229-4a102c0aea73"}', '2026-12-02 09:06:36.188368+00', '\xfd116d55dcebbbd17673f1b09f2029567550767e2cb5788c298bab0decc11bbe', '\x783fd7dc64b81c2763d0e45644dc6d709186959019a154107b53bc6b73a5abe6');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (20, '576143', 'table-acme.vip', 9, 'be09c6d9-b203-5e70-8de5-6dc142c5f7f3', 'CardsDealt', 1, '{"type": "CardsDealt", "hands": [{"box": 2, "cards": ["Qs", "Qd", "Qh", "5c", "7d"]}, {"box": 1, "cards": ["Js", "Jd", "Jh", "4c", "8d"]}], "round": 1, "dealer_cards": ["9s", "9c", "Ah", "Kd", "2h"]}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k7", "request_id": "b3038a2f-7839-4b56-9229-4a102c0aea73"}', '2026-12-02 09:06:36.188368+00', '\x783fd7dc64b81c2763d0e45644dc6d709186959019a154107b53bc6b73a5abe6', '\xfc7cbd26272e9a188b84b6bf79dd514548d04474353657f8118669bdd939d8a6');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (21, '576143', 'table-acme.vip', 10, '6d74c3b1-f40e-5b19-bf3f-fac204da1206', 'BonusSettled', 1, '{"box": 2, "won": 500, "hand": "three_of_a_kind", "type": "BonusSettled", "round": 1, "stake": 100, "capped": 0, "player": "acme:ann"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k7", "request_id": "b3038a2f-7839-4b56-9229-4a102c0aea73"}', '2026-12-02 09:06:36.188368+00', '\xfc7cbd26272e9a188b84b6bf79dd514548d04474353657f8118669bdd939d8a6', '\x52532f5ffd85fe991517ea214e525f3be2089c8790ca02918997ad006235a92f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (22, '576143', 'wallet-acme:ann', 5, '9eec2e3a-29f0-577e-8673-f51c6851cd4a', 'WalletCredited', 1, '{"box": 2, "type": "WalletCredited", "round": 1, "amount": 600, "reason": "bonus", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k7", "request_id": "b3038a2f-7839-4b56-9229-4a102c0aea73"}', '2026-12-02 09:06:36.188368+00', '\x8b85311ea58869c330ea1d214c052081896f87b5fc35989cc361727982685979', '\xe78276dc265461d3acf050d64301f3f4d1ff3e0ba8e54421373a7da0d1efc2a7');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (42, '576162', 'table-acme.vip', 22, 'b2b67870-2cd9-5321-966a-e99d1489f081', 'DealRequested', 1, '{"type": "DealRequested", "round": 2, "player": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:ann:k14", "request_id": "c5d0db6a-f7c8-4583-a3bb-93f3453cec55"}', '2026-12-02 09:06:36.275521+00', '\x9194cc5fc545b23e0e9d801e803df8adc8269b7b2f782088f1a9aaacda25f53a', '\x321d59f727301c3b428df5c19cb5a3a66a53a636ee516a5bbcb65b51c1dfcdcf');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (43, '576164', 'table-acme.vip', 23, '7e5ff2f6-59a3-535d-96a9-1728f83145ca', 'DealRequested', 1, '{"type": "DealRequested", "round": 2, "player": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k15", "request_id": "88aeb6cd-044f-4c04-b9b3-d5789b78ccc4"}', '2026-12-02 09:06:36.288491+00', '\x321d59f727301c3b428df5c19cb5a3a66a53a636ee516a5bbcb65b51c1dfcdcf', '\x5fe1690e2e5400d169de1d19d01a411d35156399b958d53f1da54c3b9726dcf4');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (44, '576164', 'table-acme.vip', 24, '5403f9b1-053b-54d1-9711-98f700c82685', 'CardsDealt', 1, '{"type": "CardsDealt", "hands": [{"box": 1, "cards": ["Qs", "Qd", "Qh", "5c", "7d"]}, {"box": 2, "cards": ["Js", "Jd", "Jh", "4c", "8d"]}], "round": 2, "dealer_cards": ["9s", "9c", "Ah", "Kd", "2h"]}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:bob:k15", "request_id": "88aeb6cd-044f-4c04-b9b3-d5789b78ccc4"}', '2026-12-02 09:06:36.288491+00', '\x5fe1690e2e5400d169de1d19d01a411d35156399b958d53f1da54c3b9726dcf4', '\xce9551467341ca03824047ab6aea6f465e5fbcd2bf19c40ec792a1b949586103');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (23, '576148', 'table-acme.vip', 11, '1990d737-97b8-5dbd-be97-1928ef15d6c8', 'BoxPlayed', 1, '{"bet": 400, "box": 2, "type": "BoxPlayed", "round": 1, "insurance": 0}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "type": "Play"}, "command_id": "acme.vip/acme:ann:k8", "request_id": "901baae5-6fed-4605-b944-de10bd07d09f"}', '2026-12-02 09:06:36.211453+00', '\x52532f5ffd85fe991517ea214e525f3be2089c8790ca02918997ad006235a92f', '\x5634239ceefe6fb6c02a59d5a6a426c36510ed2546ad2116ebb31c0cba988a84');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (24, '576148', 'wallet-acme:ann', 6, '04035269-cb05-5f7c-a898-3975d7ccbee0', 'WalletDebited', 1, '{"box": 2, "type": "WalletDebited", "round": 1, "amount": 400, "reason": "bet", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "type": "Play"}, "command_id": "acme.vip/acme:ann:k8", "request_id": "901baae5-6fed-4605-b944-de10bd07d09f"}', '2026-12-02 09:06:36.211453+00', '\xe78276dc265461d3acf050d64301f3f4d1ff3e0ba8e54421373a7da0d1efc2a7', '\x12f5af54f48e722e634557f995ab9384249d16ada31b5c4015e225bd0a2115fb');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (25, '576150', 'table-acme.vip', 12, '3297b824-d336-595d-b715-f88a082882da', 'BoxPlayed', 1, '{"bet": 200, "box": 1, "type": "BoxPlayed", "round": 1, "insurance": 0}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x5634239ceefe6fb6c02a59d5a6a426c36510ed2546ad2116ebb31c0cba988a84', '\xf2bdce3be9991dbff187feae04f0c6c2c8196e4055c28d1432c9193b32a60011');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (26, '576150', 'table-acme.vip', 13, '988566f9-6fde-57da-9588-9e7521254e63', 'DealerRevealed', 1, '{"hand": "pair", "type": "DealerRevealed", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "round": 1, "qualifies": true}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\xf2bdce3be9991dbff187feae04f0c6c2c8196e4055c28d1432c9193b32a60011', '\x41a85411a636b48f44d2fbf0926c42550f37569780522e205c803fe8a5c77ed5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (27, '576150', 'table-acme.vip', 14, 'd9bcd0a2-cbbb-5dc7-b6eb-bee854290125', 'BoxSettled', 1, '{"box": 2, "won": 1200, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 1, "capped": 0, "player": "acme:ann", "outcome": "won", "returned": 600, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x41a85411a636b48f44d2fbf0926c42550f37569780522e205c803fe8a5c77ed5', '\x07099a38f6e1094f3943625eebdb007861a7974d370ecba58c3fa4dbf82a1f2e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (28, '576150', 'table-acme.vip', 15, 'a0d69f3d-5bba-58ac-b9ef-3ce1ffb1b61b', 'BoxSettled', 1, '{"box": 1, "won": 600, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Js", "Jd", "Jh", "4c", "8d"], "round": 1, "capped": 0, "player": "acme:bob", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Js", "Jh", "Jd"], "category": "three_of_a_kind"}]}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x07099a38f6e1094f3943625eebdb007861a7974d370ecba58c3fa4dbf82a1f2e', '\x6583152d3f72672549fe8e2310a67a5f79c46d3e5fd96d5e386e1e6b123fc0ac');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (29, '576150', 'table-acme.vip', 16, '7045f862-b327-5dce-91b7-782b6abc35e4', 'RoundSettled', 1, '{"seed": "qkHqo7uMl+V8LMSK1DWQZh8Gqv4vhQPceWSKOCHtipM=", "type": "RoundSettled", "round": 1, "commitment": "70e8d047f2038c959e30f3a5f6adeb402a2ba1ff0e61b9f0489ca0c9254ed77f"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x6583152d3f72672549fe8e2310a67a5f79c46d3e5fd96d5e386e1e6b123fc0ac', '\x23374d49799dde6446767a1ef757915fd1f7d0e53543131d5faa9297d2f8d245');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (30, '576150', 'table-acme.vip', 17, 'a2d4b855-708e-5650-b5d9-21ebf93dcf5f', 'RoundOpened', 1, '{"deck": ["Qs", "Js", "9s", "Qd", "Jd", "9c", "Qh", "Jh", "Ah", "5c", "4c", "Kd", "7d", "8d", "2h"], "seed": "mMtmBf7gkekOJJ8MFVyzi5T91KEpGYndK4eYqJP5fdU=", "type": "RoundOpened", "round": 2, "commitment": "e69bbd77b23724fe0bf83205f6d4886502d49b0a4253c6d95b99ee862b0cdb03"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "acme.vip/acme:bob:k9/open-round", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x23374d49799dde6446767a1ef757915fd1f7d0e53543131d5faa9297d2f8d245', '\x479b877f2064f937688a962603fc5045c967fbfcc4235f7348c46f80ac006515');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (31, '576150', 'wallet-acme:ann', 7, '222868ef-4217-5b3a-93de-763b441d7ac3', 'WalletCredited', 1, '{"box": 2, "type": "WalletCredited", "round": 1, "amount": 1800, "reason": "settlement", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x12f5af54f48e722e634557f995ab9384249d16ada31b5c4015e225bd0a2115fb', '\x131b81b89f97932df1e389b0f57c5dbc8e25f77124e2b93289a179daea56dbc3');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (32, '576150', 'wallet-acme:bob', 5, 'fc5b7a69-fd10-57af-a136-92aab397f829', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 1, "amount": 200, "reason": "bet", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\xfea804d973b1a0ed8d0edf0a72a131abd3ec8f6bc29a5995add353e47bc00a46', '\x9286d79ca83bec1c21b1e14615c19f499494cb1cdba3bf701df81dd1753a395a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (33, '576150', 'wallet-acme:bob', 6, '2a0f8b40-5bea-546c-a954-1840339b6c11', 'WalletCredited', 1, '{"box": 1, "type": "WalletCredited", "round": 1, "amount": 900, "reason": "settlement", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k9", "request_id": "d1dcc77e-0e20-4446-a72b-652512d3341d"}', '2026-12-02 09:06:36.223068+00', '\x9286d79ca83bec1c21b1e14615c19f499494cb1cdba3bf701df81dd1753a395a', '\x04008a7fb0635bd148c0e6c7cdb43936c8ba2192ed446086036c412f16afc241');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (34, '576152', 'table-acme.vip', 18, '53a78c37-bbe8-5f1f-949e-14863871a66a', 'AntePlaced', 1, '{"bet": 0, "box": 3, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 2, "player": "acme:bob", "client_seed": null}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k10", "request_id": "852845b2-e25a-41cf-a959-8b90f0f56921"}', '2026-12-02 09:06:36.241394+00', '\x479b877f2064f937688a962603fc5045c967fbfcc4235f7348c46f80ac006515', '\x2088f1247f02b504fd01b97e7e3cb87e781f75db7f0fcf8842c2c45b80fa247f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (35, '576152', 'wallet-acme:bob', 7, 'af08c2c1-8c11-538d-8fb8-b72b5a86c9d1', 'WalletDebited', 1, '{"box": 3, "type": "WalletDebited", "round": 2, "amount": 100, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k10", "request_id": "852845b2-e25a-41cf-a959-8b90f0f56921"}', '2026-12-02 09:06:36.241394+00', '\x04008a7fb0635bd148c0e6c7cdb43936c8ba2192ed446086036c412f16afc241', '\xf10a000206d1dd9d4f7be5849912a3e3dff4f8bc1bdf3341aedecb49a2247c19');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (36, '576154', 'table-acme.vip', 19, 'b412be6d-8161-5143-a524-6ef28cd05e7b', 'BetsCancelled', 1, '{"box": 3, "type": "BetsCancelled", "round": 2, "player": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "type": "CancelBets"}, "command_id": "acme.vip/acme:bob:k11", "request_id": "30f2525c-7259-45c5-9f5c-021ea3e2c791"}', '2026-12-02 09:06:36.251894+00', '\x2088f1247f02b504fd01b97e7e3cb87e781f75db7f0fcf8842c2c45b80fa247f', '\x8ff30d72b24382138b82617d21ddc6dab0ffb7b3481511c3e115be10a18f5508');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (37, '576154', 'wallet-acme:bob', 8, 'd26c9cba-cd6e-522f-9ca8-674895352668', 'WalletCredited', 1, '{"box": 3, "type": "WalletCredited", "round": 2, "amount": 100, "reason": "refund", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 3, "type": "CancelBets"}, "command_id": "acme.vip/acme:bob:k11", "request_id": "30f2525c-7259-45c5-9f5c-021ea3e2c791"}', '2026-12-02 09:06:36.251894+00', '\xf10a000206d1dd9d4f7be5849912a3e3dff4f8bc1bdf3341aedecb49a2247c19', '\xfeaf3a2d084a8b3dd043f5c9dd384ca285df9ff5dc6ba06f59d2eb5b8117ae63');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (38, '576156', 'table-acme.vip', 20, '41574d21-9360-5a42-b52b-92fbd8283f68', 'AntePlaced', 1, '{"bet": 0, "box": 2, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 2, "player": "acme:ann", "client_seed": null}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:ann:k12", "request_id": "ef4547ef-fed4-4ceb-b7b6-399d4f9f8d2c"}', '2026-12-02 09:06:36.259632+00', '\x8ff30d72b24382138b82617d21ddc6dab0ffb7b3481511c3e115be10a18f5508', '\xe5263409b9cecb263df5823eb2b06a7dc2b76360402cda2cd9cfb1df80ab9551');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (39, '576156', 'wallet-acme:ann', 8, 'ba10e79f-bdff-52ae-84fa-02670e224365', 'WalletDebited', 1, '{"box": 2, "type": "WalletDebited", "round": 2, "amount": 100, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:ann:k12", "request_id": "ef4547ef-fed4-4ceb-b7b6-399d4f9f8d2c"}', '2026-12-02 09:06:36.259632+00', '\x131b81b89f97932df1e389b0f57c5dbc8e25f77124e2b93289a179daea56dbc3', '\xc47a202ff363bfd9f0b378615d67ca1fc3ff42d42a9d641749d258417a0b7c94');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (40, '576158', 'table-acme.vip', 21, '6ca761c6-6225-5b46-a973-a033c78d8956', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 300, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 2, "player": "acme:bob", "client_seed": null}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 300, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k13", "request_id": "dfcda2d0-e02c-4957-923f-e3f1cd97b177"}', '2026-12-02 09:06:36.267515+00', '\xe5263409b9cecb263df5823eb2b06a7dc2b76360402cda2cd9cfb1df80ab9551', '\x9194cc5fc545b23e0e9d801e803df8adc8269b7b2f782088f1a9aaacda25f53a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (41, '576158', 'wallet-acme:bob', 9, '90666bd2-e655-5f69-8aa4-22426d6a89a1', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 2, "amount": 300, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "ante": 300, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:bob:k13", "request_id": "dfcda2d0-e02c-4957-923f-e3f1cd97b177"}', '2026-12-02 09:06:36.267515+00', '\xfeaf3a2d084a8b3dd043f5c9dd384ca285df9ff5dc6ba06f59d2eb5b8117ae63', '\x75ccee92bdcfa7885a0a43d35d8bd39d038c285d3b8581784e9cd9b460e15cc5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (45, '576168', 'table-acme.vip', 25, '167108f9-2b89-5258-91d9-9820abe41471', 'BoxFolded', 1, '{"box": 2, "type": "BoxFolded", "round": 2, "timed_out": false}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 2, "type": "Fold"}, "command_id": "acme.vip/acme:ann:k16", "request_id": "3e81fc0e-f78a-48e9-8e5c-7627a2eac173"}', '2026-12-02 09:06:36.32251+00', '\xce9551467341ca03824047ab6aea6f465e5fbcd2bf19c40ec792a1b949586103', '\x263b04a38a1fad0df25f1daa5a12dc12304dca919dacf719ad311431fc931f78');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (46, '576172', 'table-acme.vip', 26, 'c822931f-28d4-59f9-a38a-d8ba70f53f2b', 'BoxPlayed', 1, '{"bet": 600, "box": 1, "type": "BoxPlayed", "round": 2, "insurance": 0}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x263b04a38a1fad0df25f1daa5a12dc12304dca919dacf719ad311431fc931f78', '\x01e23d2a0ab1597c89a785b06061ba2e19495dd8a8ac309f79360634a608e20e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (47, '576172', 'table-acme.vip', 27, 'a31d3e10-82f4-520f-aab9-78b9fec9c52d', 'DealerRevealed', 1, '{"hand": "pair", "type": "DealerRevealed", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "round": 2, "qualifies": true}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x01e23d2a0ab1597c89a785b06061ba2e19495dd8a8ac309f79360634a608e20e', '\x089feb6cebc9799e640996fcfb8a99567b2cf6c0232e97db156294ac012869e0');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (48, '576172', 'table-acme.vip', 28, '4e49de31-43fc-53dc-874d-e314988e77d5', 'BoxSettled', 1, '{"box": 1, "won": 1800, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 2, "capped": 0, "player": "acme:bob", "outcome": "won", "returned": 900, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x089feb6cebc9799e640996fcfb8a99567b2cf6c0232e97db156294ac012869e0', '\xec1a721c86a2ae88025ba5be9a7100c7eaa0fd561ae95d9af3951b1b28cb2dc5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (49, '576172', 'table-acme.vip', 29, 'c6af4554-66d0-5612-8d76-308d7c31a247', 'BoxSettled', 1, '{"box": 2, "won": 0, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Js", "Jd", "Jh", "4c", "8d"], "round": 2, "capped": 0, "player": "acme:ann", "outcome": "folded", "returned": 0, "dealer_draw": false, "combinations": []}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\xec1a721c86a2ae88025ba5be9a7100c7eaa0fd561ae95d9af3951b1b28cb2dc5', '\x081f21187d3d3312373331e2abf6fc3a2b4f4dd93885a1c0088c7a545302bc6c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (50, '576172', 'table-acme.vip', 30, '42b59c62-57be-5e06-bf60-4d432ccf7619', 'RoundSettled', 1, '{"seed": "mMtmBf7gkekOJJ8MFVyzi5T91KEpGYndK4eYqJP5fdU=", "type": "RoundSettled", "round": 2, "commitment": "e69bbd77b23724fe0bf83205f6d4886502d49b0a4253c6d95b99ee862b0cdb03"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x081f21187d3d3312373331e2abf6fc3a2b4f4dd93885a1c0088c7a545302bc6c', '\x76ddb70ebc9e977f5689ef28e566279d1780eff1d0172cb1ba272d07d6bc75f7');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (51, '576172', 'table-acme.vip', 31, 'd758b80b-f0c9-5051-bc1c-7ab6f0eae9ff', 'RoundOpened', 1, '{"deck": ["Qs", "9s", "Qd", "9c", "Qh", "Ah", "5c", "Kd", "7d", "2h"], "seed": "b9B9fHC362A72ZEX1OOzRvhOiNMBZg7mqD+J2CndCd8=", "type": "RoundOpened", "round": 3, "commitment": "41d9566eb53207073eecea0d059d0d0acecd7c9e4b51e2a9db33abf7ea7c65e4"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "acme.vip/acme:bob:k17/open-round", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x76ddb70ebc9e977f5689ef28e566279d1780eff1d0172cb1ba272d07d6bc75f7', '\x68f17761d03926ec8e0d33e47b3095ab39996f4ed38a370e12a14718eafb5d61');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (52, '576172', 'wallet-acme:bob', 10, 'c1f6f854-fb47-515a-9e29-8671a06b9d7e', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 2, "amount": 600, "reason": "bet", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\x75ccee92bdcfa7885a0a43d35d8bd39d038c285d3b8581784e9cd9b460e15cc5', '\xeeb954abb9f045350f53d004a8f8b353fcdc15ea7257c1cf497ccec091768a57');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (53, '576172', 'wallet-acme:bob', 11, '0aa7c076-f228-5904-abad-dd554f7d80b8', 'WalletCredited', 1, '{"box": 1, "type": "WalletCredited", "round": 2, "amount": 2700, "reason": "settlement", "table_id": "acme.vip", "wallet_id": "acme:bob"}', '{"actor": {"id": "acme:bob", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "acme.vip/acme:bob:k17", "request_id": "82680ca4-d660-4760-b96b-655ead81e5f9"}', '2026-12-02 09:06:36.33465+00', '\xeeb954abb9f045350f53d004a8f8b353fcdc15ea7257c1cf497ccec091768a57', '\x100152a2b3ae56a4e575b57657a538f9e5c0473007b96c45efb66fdb9c8e4af9');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (54, '576175', 'table-acme.vip', 32, '8289e2b4-01f9-5a08-8976-36079de039b7', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 3, "player": "acme:ann", "client_seed": null}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:ann:k18", "request_id": "081e9357-3c68-400d-bf1a-d99054660fde"}', '2026-12-02 09:06:36.372211+00', '\x68f17761d03926ec8e0d33e47b3095ab39996f4ed38a370e12a14718eafb5d61', '\xb1b31fd678ed376d2c09bb764d92e39f0f45680f729339e28ebd212fe8601d04');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (55, '576175', 'wallet-acme:ann', 9, 'ba6a87cd-9609-5048-b98f-db32201242f8', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 3, "amount": 100, "reason": "ante", "table_id": "acme.vip", "wallet_id": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "acme.vip/acme:ann:k18", "request_id": "081e9357-3c68-400d-bf1a-d99054660fde"}', '2026-12-02 09:06:36.372211+00', '\xc47a202ff363bfd9f0b378615d67ca1fc3ff42d42a9d641749d258417a0b7c94', '\x9bf9ef8706420e6d3dcd1c774137cf3e9da836e6bc0d916a84dbc21f98c5af7a');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (56, '576177', 'table-acme.vip', 33, 'b6008b13-e463-5ad0-8c7b-9b2030a3034a', 'DealRequested', 1, '{"type": "DealRequested", "round": 3, "player": "acme:ann"}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:ann:k19", "request_id": "c450914d-80c4-4006-bb46-fea0b9380457"}', '2026-12-02 09:06:36.387192+00', '\xb1b31fd678ed376d2c09bb764d92e39f0f45680f729339e28ebd212fe8601d04', '\xd7d3f825d9ba0be73693402252b782c5d14b4553f7984d8a68b6f7f4ca856b05');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (57, '576177', 'table-acme.vip', 34, '374863c7-a379-57ea-b9aa-9504b6b39881', 'CardsDealt', 1, '{"type": "CardsDealt", "hands": [{"box": 1, "cards": ["Qs", "Qd", "Qh", "5c", "7d"]}], "round": 3, "dealer_cards": ["9s", "9c", "Ah", "Kd", "2h"]}', '{"actor": {"id": "acme:ann", "role": "player"}, "command": {"type": "Deal"}, "command_id": "acme.vip/acme:ann:k19", "request_id": "c450914d-80c4-4006-bb46-fea0b9380457"}', '2026-12-02 09:06:36.387192+00', '\xd7d3f825d9ba0be73693402252b782c5d14b4553f7984d8a68b6f7f4ca856b05', '\x064dd1fe751cd19cbb7925d23571e1cad3328e49cd107da0961440d988a9730c');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (58, '576189', 'seamless-beta:cy', 1, '54f7e569-f76d-582a-98ec-ab0b6973ac94', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 1, "amount": 100, "reason": "ante", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k20", "request_id": "4f47360c-f390-4a59-b9ce-c7d7ca67cb77"}', '2026-12-02 09:06:36.458387+00', '\x0000000000000000000000000000000000000000000000000000000000000000', '\xbdb93e6dbdb6a8bd5f66a5d95e8629301f5a4fb0d434fbe01769ba57248d4646');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (59, '576189', 'table-beta.main', 4, '265f43fe-c0b8-5908-9d85-0e3513f4f345', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 1, "player": "beta:cy", "client_seed": null}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k20", "request_id": "4f47360c-f390-4a59-b9ce-c7d7ca67cb77"}', '2026-12-02 09:06:36.458387+00', '\x61ffdfb7d13cc4f639583752b0583479b75399cb047156961efd3dd6e33fed01', '\x3a00bd5c8f110d053c1a6776f6160fb097adb0f1ccc8913826a54e382bdab01f');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (60, '576193', 'table-beta.main', 5, '23cdf608-4b9f-545e-af98-d27b4af379ef', 'DealRequested', 1, '{"type": "DealRequested", "round": 1, "player": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "command_id": "beta.main/beta:cy:k21", "request_id": "a340a66b-fab2-46d7-8a0b-9f58b4f0f7a9"}', '2026-12-02 09:06:36.473374+00', '\x3a00bd5c8f110d053c1a6776f6160fb097adb0f1ccc8913826a54e382bdab01f', '\xbc75d14b813e3c5bba14c72f9550fb6032988e7e5941c64bb6a7cb281ba8df19');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (61, '576193', 'table-beta.main', 6, 'b8b55ac8-0224-5fa7-b3fe-d3ecd6f8111c', 'CardsDealt', 1, '{"type": "CardsDealt", "hands": [{"box": 1, "cards": ["Qs", "Qd", "Qh", "5c", "7d"]}], "round": 1, "dealer_cards": ["9s", "9c", "Ah", "Kd", "2h"]}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "command_id": "beta.main/beta:cy:k21", "request_id": "a340a66b-fab2-46d7-8a0b-9f58b4f0f7a9"}', '2026-12-02 09:06:36.473374+00', '\xbc75d14b813e3c5bba14c72f9550fb6032988e7e5941c64bb6a7cb281ba8df19', '\x80fdc39e02122d3f88659ed958a859353abf49a6e08ab56eb2d2709d47df12bd');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (62, '576203', 'seamless-beta:cy', 2, 'ab7e110f-d817-5062-af22-b184f5bac9a5', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 1, "amount": 200, "reason": "bet", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\xbdb93e6dbdb6a8bd5f66a5d95e8629301f5a4fb0d434fbe01769ba57248d4646', '\x52a41c60033d4c591d4f92c374ffd83ac1591ca269aa8da3392a1a9d14e49d0b');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (63, '576203', 'seamless-beta:cy', 3, 'c055965a-0cc6-5b24-b193-3544b6879f7d', 'WalletCredited', 1, '{"box": 1, "type": "WalletCredited", "round": 1, "amount": 1000, "reason": "settlement", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\x52a41c60033d4c591d4f92c374ffd83ac1591ca269aa8da3392a1a9d14e49d0b', '\x8370de565d0d11d086e87f9bc4bf2db4e11a120c54de800a8d41a44fd0b32795');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (64, '576203', 'table-beta.main', 7, '234ad855-ebe0-55c6-b24f-8eff0c57ebf1', 'BoxPlayed', 1, '{"bet": 200, "box": 1, "type": "BoxPlayed", "round": 1, "insurance": 0}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\x80fdc39e02122d3f88659ed958a859353abf49a6e08ab56eb2d2709d47df12bd', '\xc4f1442377dc35fa905d287c24abb3d737bd8fbb1699831e40e97c61e16975c5');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (65, '576203', 'table-beta.main', 8, '690230c1-9f7e-501f-a6a6-0963201c22cf', 'DealerRevealed', 1, '{"hand": "pair", "type": "DealerRevealed", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "round": 1, "qualifies": true}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\xc4f1442377dc35fa905d287c24abb3d737bd8fbb1699831e40e97c61e16975c5', '\x462f94aa0c1ef4b9ea4cab3c39d95e60a594476985a8bffbd7af28933c0c485e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (66, '576203', 'table-beta.main', 9, 'fded6e66-6069-5bcc-9836-4fc2f6a90dff', 'BoxSettled', 1, '{"box": 1, "won": 700, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 1, "capped": 0, "player": "beta:cy", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\x462f94aa0c1ef4b9ea4cab3c39d95e60a594476985a8bffbd7af28933c0c485e', '\x4abaa148a911e00c277300dc64613d487183b18755d23b7d7c5b6abc6f535b17');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (67, '576203', 'table-beta.main', 10, 'ff2a19cb-bb53-596f-a696-cfe890c96f56', 'RoundSettled', 1, '{"seed": "6lQmxzOV1nYPdvzIMs7k/wHjuIZLLEOPUlGyKeeZxl0=", "type": "RoundSettled", "round": 1, "commitment": "e6c494874e17dfced004f3665606da58e74fc6376475029354ca265d1a11097b"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k22", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\x4abaa148a911e00c277300dc64613d487183b18755d23b7d7c5b6abc6f535b17', '\x0e315529e636de90422561696f654692cc636f14d02b3c6097c109cb6fb444fb');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (68, '576203', 'table-beta.main', 11, '280627f6-2a61-503e-b1a8-9146f1f89f08', 'RoundOpened', 1, '{"deck": ["Qs", "9s", "Qd", "9c", "Qh", "Ah", "5c", "Kd", "7d", "2h"], "seed": "DwL70F4gAIQ62l75JWiWA5LsBXzSKV6a2H9GKmm/wMs=", "type": "RoundOpened", "round": 2, "commitment": "ca4f5da616afb7cd88e7b1a639697e80cfec8539809d05af2a06d91b4e17bc1a"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "beta.main/beta:cy:k22/open-round", "request_id": "539a5e75-9e91-4ed2-bbc0-923cc167e4ee"}', '2026-12-02 09:06:36.511249+00', '\x0e315529e636de90422561696f654692cc636f14d02b3c6097c109cb6fb444fb', '\xeb1e6bee413c1cc0580f2469a423e7318d3819804080129ef3472f62782d1d5b');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (69, '576222', 'seamless-beta:cy', 4, '1776e60b-1ee5-50d9-b130-5bf60d6629d9', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 2, "amount": 100, "reason": "ante", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k23", "request_id": "5e95d8fd-596d-4d74-88bc-0c26aca27feb"}', '2026-12-02 09:06:36.573974+00', '\x8370de565d0d11d086e87f9bc4bf2db4e11a120c54de800a8d41a44fd0b32795', '\x3193f1531b0bb33641a32732c0d19026ef4498edc9712bd46675e2829904835e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (70, '576222', 'table-beta.main', 12, 'c93c9a4f-86ca-50f2-86e4-4027b3ad55a6', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 2, "player": "beta:cy", "client_seed": null}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k23", "request_id": "5e95d8fd-596d-4d74-88bc-0c26aca27feb"}', '2026-12-02 09:06:36.573974+00', '\xeb1e6bee413c1cc0580f2469a423e7318d3819804080129ef3472f62782d1d5b', '\x9d43229ceb533f00a3de1f01db1863c516fe1714b067d5b8e3dfea9ea1bf1745');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (71, '576229', 'table-beta.main', 13, 'd4203bab-d2ef-5a08-892a-5233dd0980dd', 'DealRequested', 1, '{"type": "DealRequested", "round": 2, "player": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "command_id": "beta.main/beta:cy:k24", "request_id": "fe477dfc-8652-45ae-b9d1-0e1f788e44e3"}', '2026-12-02 09:06:36.593266+00', '\x9d43229ceb533f00a3de1f01db1863c516fe1714b067d5b8e3dfea9ea1bf1745', '\x55fcefad4e88243f480837e0ddef994ea09b183992f4a1d40e9e048d8dd6d8c4');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (72, '576229', 'table-beta.main', 14, '19358389-1a25-59c3-9a8d-bc9aeaaa07ec', 'CardsDealt', 1, '{"type": "CardsDealt", "hands": [{"box": 1, "cards": ["Qs", "Qd", "Qh", "5c", "7d"]}], "round": 2, "dealer_cards": ["9s", "9c", "Ah", "Kd", "2h"]}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"type": "Deal"}, "command_id": "beta.main/beta:cy:k24", "request_id": "fe477dfc-8652-45ae-b9d1-0e1f788e44e3"}', '2026-12-02 09:06:36.593266+00', '\x55fcefad4e88243f480837e0ddef994ea09b183992f4a1d40e9e048d8dd6d8c4', '\xacf790e7f0f130520ef278dbcf87c539ac08c848fb55e397a58d422d30fc3ba4');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (73, '576244', 'seamless-beta:cy', 5, '8d52a848-fa71-58b9-91ad-abeeb9d19ae8', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 2, "amount": 200, "reason": "bet", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\x3193f1531b0bb33641a32732c0d19026ef4498edc9712bd46675e2829904835e', '\x7a2eb4a22eb6d296bf2483b02f7302cf225d37b6c8e670a82eda347cec868178');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (74, '576244', 'seamless-beta:cy', 6, '7e81746e-c440-54da-8282-1dd44e074192', 'WalletCredited', 1, '{"box": 1, "type": "WalletCredited", "round": 2, "amount": 1000, "reason": "settlement", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\x7a2eb4a22eb6d296bf2483b02f7302cf225d37b6c8e670a82eda347cec868178', '\x9184619360cc84e34a1238248fff144b87776ebe8d5965e01d86271e87f38dda');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (75, '576244', 'table-beta.main', 15, 'd89d550c-0686-50b8-8a81-9b34b3879e92', 'BoxPlayed', 1, '{"bet": 200, "box": 1, "type": "BoxPlayed", "round": 2, "insurance": 0}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\xacf790e7f0f130520ef278dbcf87c539ac08c848fb55e397a58d422d30fc3ba4', '\x414849950e85301722fc63866afe8b020d1e1a42d38f3305414f6f5925f8f459');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (76, '576244', 'table-beta.main', 16, 'fe616830-3629-51eb-ad29-20dc095a45ff', 'DealerRevealed', 1, '{"hand": "pair", "type": "DealerRevealed", "cards": ["9s", "9c", "Ah", "Kd", "2h"], "round": 2, "qualifies": true}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\x414849950e85301722fc63866afe8b020d1e1a42d38f3305414f6f5925f8f459', '\x50a5d4d27ca6d4c42d56de514f7cee02179aace4a1e85b3fad9007b96b9bad2e');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (77, '576244', 'table-beta.main', 17, '10eb90d6-6b1c-591a-adb5-b086f6df060c', 'BoxSettled', 1, '{"box": 1, "won": 700, "hand": "three_of_a_kind", "type": "BoxSettled", "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "round": 2, "capped": 0, "player": "beta:cy", "outcome": "won", "returned": 300, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\x50a5d4d27ca6d4c42d56de514f7cee02179aace4a1e85b3fad9007b96b9bad2e', '\xb3d281ab78d4e51ae6279799301f5fa20ec4976ebdea5aad8cc9a78dcd3019f1');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (78, '576244', 'table-beta.main', 18, '5c66d561-1d04-5e04-8f0e-f2755b991243', 'RoundSettled', 1, '{"seed": "DwL70F4gAIQ62l75JWiWA5LsBXzSKV6a2H9GKmm/wMs=", "type": "RoundSettled", "round": 2, "commitment": "ca4f5da616afb7cd88e7b1a639697e80cfec8539809d05af2a06d91b4e17bc1a"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "type": "Play"}, "command_id": "beta.main/beta:cy:k25", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\xb3d281ab78d4e51ae6279799301f5fa20ec4976ebdea5aad8cc9a78dcd3019f1', '\x2c9c71260f2e46bcb98c9aac344b57d2de3d53c12b0911df80cabc9d64d88814');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (79, '576244', 'table-beta.main', 19, 'e20fd1b0-2c7f-5ec4-a405-eddd71afd601', 'RoundOpened', 1, '{"deck": ["Qs", "9s", "Qd", "9c", "Qh", "Ah", "5c", "Kd", "7d", "2h"], "seed": "H+sVOZputYP1XeAry7eZHCeieHfRWtvnj+UlCOtahtU=", "type": "RoundOpened", "round": 3, "commitment": "7d885e54285967bd328f2166d63f917d8fc1180f42a1b0c199d61e9e7046c428"}', '{"actor": {"id": "system", "role": "system"}, "command": {"type": "OpenRound"}, "command_id": "beta.main/beta:cy:k25/open-round", "request_id": "578c2776-9f1e-4f68-b747-373a5da1fa88"}', '2026-12-02 09:06:36.671591+00', '\x2c9c71260f2e46bcb98c9aac344b57d2de3d53c12b0911df80cabc9d64d88814', '\x4283692485e2f0b44767bc1eeafc57c8adc27223c0b7fa2ef4566f6565a56bd1');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (80, '576253', 'seamless-beta:cy', 7, 'bcbfe1d2-a632-5065-ad20-2e3b38c03108', 'WalletDebited', 1, '{"box": 1, "type": "WalletDebited", "round": 3, "amount": 100, "reason": "ante", "table_id": "beta.main", "wallet_id": "beta:cy"}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k26", "request_id": "f967c6d3-5c11-4ebd-8435-5daa70c96d88"}', '2026-12-02 09:06:36.706575+00', '\x9184619360cc84e34a1238248fff144b87776ebe8d5965e01d86271e87f38dda', '\x193921c8d5cfc41d3249e2eb398a2962604b77ed465f9aae29b28b94dbf45736');
INSERT INTO public.events OVERRIDING SYSTEM VALUE VALUES (81, '576253', 'table-beta.main', 20, '19940bc1-63b5-5927-81b0-15b7625e4169', 'AntePlaced', 1, '{"bet": 0, "box": 1, "ante": 100, "dark": false, "type": "AntePlaced", "bonus": 0, "round": 3, "player": "beta:cy", "client_seed": null}', '{"actor": {"id": "beta:cy", "role": "player"}, "command": {"box": 1, "ante": 100, "dark": false, "type": "PlaceAnte", "bonus": 0, "client_seed": null}, "command_id": "beta.main/beta:cy:k26", "request_id": "f967c6d3-5c11-4ebd-8435-5daa70c96d88"}', '2026-12-02 09:06:36.706575+00', '\x4283692485e2f0b44767bc1eeafc57c8adc27223c0b7fa2ef4566f6565a56bd1', '\x21db35692913d20ebf899d61c67b561882a8084d10f82ae57136d22b78ed13d3');


--
-- Data for Name: game_sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.game_sessions VALUES ('s-f41333599994bb41dde77fae', 'acme', 'ann', 'EUR', NULL, NULL, NULL, '2026-12-02 09:06:36.04149+00', '2026-12-02 10:06:36.041376+00', NULL);
INSERT INTO public.game_sessions VALUES ('s-f9f31ed1fec67707e219c387', 'acme', 'bob', 'EUR', NULL, NULL, NULL, '2026-12-02 09:06:36.045759+00', '2026-12-02 10:06:36.045651+00', NULL);
INSERT INTO public.game_sessions VALUES ('s-1b007751717c273f9a639352', 'beta', 'cy', 'EUR', NULL, NULL, NULL, '2026-12-02 09:06:36.049585+00', '2026-12-02 10:06:36.049528+00', NULL);


--
-- Data for Name: idempotency_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: ledger; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ledger VALUES (2, 'acme:ann', 'FundsDeposited', 50000, NULL, NULL, NULL, NULL, 'fund-ann', 50000, '2026-12-02 09:06:35.971309+00');
INSERT INTO public.ledger VALUES (4, 'acme:bob', 'FundsDeposited', 20000, NULL, NULL, NULL, NULL, 'fund-bob', 20000, '2026-12-02 09:06:35.989882+00');
INSERT INTO public.ledger VALUES (5, 'acme:bob', 'FundsWithdrawn', -1000, NULL, NULL, NULL, NULL, 'cash-out-bob', 19000, '2026-12-02 09:06:36.000413+00');
INSERT INTO public.ledger VALUES (14, 'acme:ann', 'WalletDebited', -200, 'ante', 'acme.vip', 1, 2, NULL, 49800, '2026-12-02 09:06:36.143779+00');
INSERT INTO public.ledger VALUES (15, 'acme:ann', 'WalletDebited', -100, 'bonus', 'acme.vip', 1, 2, NULL, 49700, '2026-12-02 09:06:36.143779+00');
INSERT INTO public.ledger VALUES (17, 'acme:bob', 'WalletDebited', -100, 'ante', 'acme.vip', 1, 1, NULL, 18900, '2026-12-02 09:06:36.167327+00');
INSERT INTO public.ledger VALUES (22, 'acme:ann', 'WalletCredited', 600, 'bonus', 'acme.vip', 1, 2, NULL, 50300, '2026-12-02 09:06:36.188368+00');
INSERT INTO public.ledger VALUES (24, 'acme:ann', 'WalletDebited', -400, 'bet', 'acme.vip', 1, 2, NULL, 49900, '2026-12-02 09:06:36.211453+00');
INSERT INTO public.ledger VALUES (31, 'acme:ann', 'WalletCredited', 1800, 'settlement', 'acme.vip', 1, 2, NULL, 51700, '2026-12-02 09:06:36.223068+00');
INSERT INTO public.ledger VALUES (32, 'acme:bob', 'WalletDebited', -200, 'bet', 'acme.vip', 1, 1, NULL, 18700, '2026-12-02 09:06:36.223068+00');
INSERT INTO public.ledger VALUES (33, 'acme:bob', 'WalletCredited', 900, 'settlement', 'acme.vip', 1, 1, NULL, 19600, '2026-12-02 09:06:36.223068+00');
INSERT INTO public.ledger VALUES (35, 'acme:bob', 'WalletDebited', -100, 'ante', 'acme.vip', 2, 3, NULL, 19500, '2026-12-02 09:06:36.241394+00');
INSERT INTO public.ledger VALUES (37, 'acme:bob', 'WalletCredited', 100, 'refund', 'acme.vip', 2, 3, NULL, 19600, '2026-12-02 09:06:36.251894+00');
INSERT INTO public.ledger VALUES (39, 'acme:ann', 'WalletDebited', -100, 'ante', 'acme.vip', 2, 2, NULL, 51600, '2026-12-02 09:06:36.259632+00');
INSERT INTO public.ledger VALUES (41, 'acme:bob', 'WalletDebited', -300, 'ante', 'acme.vip', 2, 1, NULL, 19300, '2026-12-02 09:06:36.267515+00');
INSERT INTO public.ledger VALUES (52, 'acme:bob', 'WalletDebited', -600, 'bet', 'acme.vip', 2, 1, NULL, 18700, '2026-12-02 09:06:36.33465+00');
INSERT INTO public.ledger VALUES (53, 'acme:bob', 'WalletCredited', 2700, 'settlement', 'acme.vip', 2, 1, NULL, 21400, '2026-12-02 09:06:36.33465+00');
INSERT INTO public.ledger VALUES (55, 'acme:ann', 'WalletDebited', -100, 'ante', 'acme.vip', 3, 1, NULL, 51500, '2026-12-02 09:06:36.372211+00');


--
-- Data for Name: operator_credentials; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.operator_credentials VALUES ('3532e495a8b2', 'acme', 'operator', 'back office', '\x1a1b03fe3b3d219f319be994cbb461550094f9d31bf54e6e1c831d9c3904098a', '2026-12-02 09:06:35.942486+00', 'root', NULL, NULL, NULL);


--
-- Data for Name: operators; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.operators VALUES ('acme', 'Acme', '{EUR}', 'internal', NULL, NULL, NULL, '2026-12-02 09:06:35.925588+00', '2026-12-02 09:06:35.925588+00');
INSERT INTO public.operators VALUES ('beta', 'Beta', '{EUR}', 'seamless', 'http://127.0.0.1:57833/wallet', 'reference-wallet-secret-wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww', 5000, '2026-12-02 09:06:35.933671+00', '2026-12-02 09:06:35.933671+00');


--
-- Data for Name: projection_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.projection_checkpoints VALUES ('availability', '576253', 81, '2026-12-02 09:06:36.733541+00');
INSERT INTO public.projection_checkpoints VALUES ('audit', '576253', 81, '2026-12-02 09:06:36.7337+00');


--
-- Data for Name: round_boxes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.round_boxes VALUES ('acme.vip', 1, 1, 'acme:bob', '2026-12-02 09:06:36.223068+00', '{"bet": 200, "box": 1, "won": 600, "ante": 100, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 0, "cards": ["Js", "Jd", "Jh", "4c", "8d"], "player": "acme:bob", "result": {"net": 600, "won": 600, "fees": 0, "hand": "three_of_a_kind", "bonus": null, "capped": 0, "staked": 300, "outcome": "won", "returned": 300, "insurance": null, "paid_back": 900, "dealer_draw": false, "combinations": [{"cards": ["Js", "Jh", "Jd"], "category": "three_of_a_kind"}]}, "staked": 300, "outcome": "won", "decision": "play", "returned": 300, "bonus_won": 0, "insurance": 0, "paid_back": 900, "client_seed": null, "dealer_draw": null}', 300, 900);
INSERT INTO public.round_boxes VALUES ('acme.vip', 1, 2, 'acme:ann', '2026-12-02 09:06:36.223068+00', '{"bet": 400, "box": 2, "won": 1200, "ante": 200, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 100, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "player": "acme:ann", "result": {"net": 1700, "won": 1200, "fees": 0, "hand": "three_of_a_kind", "bonus": {"won": 500, "hand": "three_of_a_kind", "stake": 100, "capped": 0, "outcome": "won"}, "capped": 0, "staked": 700, "outcome": "won", "returned": 600, "insurance": null, "paid_back": 2400, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "staked": 700, "outcome": "won", "decision": "play", "returned": 600, "bonus_won": 500, "insurance": 0, "paid_back": 2400, "client_seed": null, "dealer_draw": null}', 700, 2400);
INSERT INTO public.round_boxes VALUES ('acme.vip', 2, 1, 'acme:bob', '2026-12-02 09:06:36.33465+00', '{"bet": 600, "box": 1, "won": 1800, "ante": 300, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "player": "acme:bob", "result": {"net": 1800, "won": 1800, "fees": 0, "hand": "three_of_a_kind", "bonus": null, "capped": 0, "staked": 900, "outcome": "won", "returned": 900, "insurance": null, "paid_back": 2700, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "staked": 900, "outcome": "won", "decision": "play", "returned": 900, "bonus_won": 0, "insurance": 0, "paid_back": 2700, "client_seed": null, "dealer_draw": null}', 900, 2700);
INSERT INTO public.round_boxes VALUES ('acme.vip', 2, 2, 'acme:ann', '2026-12-02 09:06:36.33465+00', '{"bet": 0, "box": 2, "won": 0, "ante": 100, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 0, "cards": ["Js", "Jd", "Jh", "4c", "8d"], "player": "acme:ann", "result": {"net": -100, "won": 0, "fees": 0, "hand": "three_of_a_kind", "bonus": null, "capped": 0, "staked": 100, "outcome": "folded", "returned": 0, "insurance": null, "paid_back": 0, "dealer_draw": false, "combinations": []}, "staked": 100, "outcome": "folded", "decision": "fold", "returned": 0, "bonus_won": 0, "insurance": 0, "paid_back": 0, "client_seed": null, "dealer_draw": null}', 100, 0);
INSERT INTO public.round_boxes VALUES ('beta.main', 1, 1, 'beta:cy', '2026-12-02 09:06:36.511249+00', '{"bet": 200, "box": 1, "won": 700, "ante": 100, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "player": "beta:cy", "result": {"net": 700, "won": 700, "fees": 0, "hand": "three_of_a_kind", "bonus": null, "capped": 0, "staked": 300, "outcome": "won", "returned": 300, "insurance": null, "paid_back": 1000, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "staked": 300, "outcome": "won", "decision": "play", "returned": 300, "bonus_won": 0, "insurance": 0, "paid_back": 1000, "client_seed": null, "dealer_draw": null}', 300, 1000);
INSERT INTO public.round_boxes VALUES ('beta.main', 2, 1, 'beta:cy', '2026-12-02 09:06:36.671591+00', '{"bet": 200, "box": 1, "won": 700, "ante": 100, "dark": false, "fees": 0, "hand": "three_of_a_kind", "bonus": 0, "cards": ["Qs", "Qd", "Qh", "5c", "7d"], "player": "beta:cy", "result": {"net": 700, "won": 700, "fees": 0, "hand": "three_of_a_kind", "bonus": null, "capped": 0, "staked": 300, "outcome": "won", "returned": 300, "insurance": null, "paid_back": 1000, "dealer_draw": false, "combinations": [{"cards": ["Qs", "Qh", "Qd"], "category": "three_of_a_kind"}]}, "staked": 300, "outcome": "won", "decision": "play", "returned": 300, "bonus_won": 0, "insurance": 0, "paid_back": 1000, "client_seed": null, "dealer_draw": null}', 300, 1000);


--
-- Data for Name: rounds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.rounds VALUES ('acme.vip', 1, '2026-12-02 09:06:36.223068+00', '70e8d047f2038c959e30f3a5f6adeb402a2ba1ff0e61b9f0489ca0c9254ed77f', 'aa41eaa3bb8c97e57c2cc48ad43590661f06aafe2f8503dc79648a3821ed8a93', '{9s,9c,Ah,Kd,2h}', 'pair', 1000, 3300, '{acme:ann,acme:bob}', '73c859d5d3bb2ce9');
INSERT INTO public.rounds VALUES ('acme.vip', 2, '2026-12-02 09:06:36.33465+00', 'e69bbd77b23724fe0bf83205f6d4886502d49b0a4253c6d95b99ee862b0cdb03', '98cb6605fee091e90e249f0c155cb38b94fdd4a1291989dd2b8798a893f97dd5', '{9s,9c,Ah,Kd,2h}', 'pair', 1000, 2700, '{acme:bob,acme:ann}', '73c859d5d3bb2ce9');
INSERT INTO public.rounds VALUES ('beta.main', 1, '2026-12-02 09:06:36.511249+00', 'e6c494874e17dfced004f3665606da58e74fc6376475029354ca265d1a11097b', 'ea5426c73395d6760f76fcc832cee4ff01e3b8864b2c438f5251b229e799c65d', '{9s,9c,Ah,Kd,2h}', 'pair', 300, 1000, '{beta:cy}', 'b89847c8298553be');
INSERT INTO public.rounds VALUES ('beta.main', 2, '2026-12-02 09:06:36.671591+00', 'ca4f5da616afb7cd88e7b1a639697e80cfec8539809d05af2a06d91b4e17bc1a', '0f02fbd05e2000843ada5ef92568960392ec057cd2295e9ad87f462a69bfc0cb', '{9s,9c,Ah,Kd,2h}', 'pair', 300, 1000, '{beta:cy}', 'b89847c8298553be');


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (1, '0001_event_store', '87f9a927b14a5ed344616167bbd030846248d38dd20fd276fc6e4eebecc3dc04', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (2, '0002_read_models', 'dd2864508b530e14aa6ac4871c9f170ca3b82709533155caab60560d1d4bb3d8', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (3, '0003_audit', '2766c0eaa0eba0cd29ea4084025e01c7716e107d6e94d49b8960a705fe008721', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (4, '0004_append_notify_option', 'f00c09c932e03480319c1611189927848bf964509668be0aaae5481fe8da1c96', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (5, '0005_table_checkpoints', 'c574af567759f82ee117d39b929249b57ca57105330d08e889f1dc7efc3efc46', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (6, '0006_round_history', '426aa4348a506295120f7067f5cb482c7dfef06b9a11e16d70bd91e660c5d13e', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (7, '0007_state_compression', '2ebda9625c5bb0ef898700f7d6acc5a24b74f3e7f09fbce1e1034baf22beed36', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (8, '0008_timers_by_table', '031aaea90989f461e87c4177e886231b5ecf60d456a94e88515de93099f34e1e', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (9, '0009_operators', '9447fb008d1845eaed205576d878ec92b5319cd0ce45ce15f1daa0b4c17d802b', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (10, '0010_event_chain', '56374f0999bd4ba0993fb373503a213d44ebae861900faab5e6068cacb7730b4', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (11, '0011_availability', '227abe244bf68ca88abaa3e46f8249a67eb5911012a8e32a503e481bf7e824b7', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (12, '0012_rtp', '27e51891cdcbe6d2259a4c48bf9b7b40a53afcc719d1ab1bc1e5c6be00798129', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (13, '0013_abandoned_rounds', 'bf3b157703abfdd6accd495bb28952208be5bf4b7cf8070e040c2a36eb0962ea', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (14, '0014_leaner_indexes', '7c1795c387cffe76e5f0fe40a33595f60c7863bfd7128aa61ddaa52199ec5898', '2026-12-02 09:06:35.653907+00');
INSERT INTO public.schema_migrations VALUES (15, '0015_tenancy', 'ad5e8b1f7a09e320e3ede3b0a29398a95684e3768bb0a1b04c2ba4a0bf75e53c', '2026-12-02 09:06:35.653907+00');


--
-- Data for Name: snapshots; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: streams; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.streams VALUES ('wallet-acme:bob', 11);
INSERT INTO public.streams VALUES ('wallet-acme:ann', 9);
INSERT INTO public.streams VALUES ('table-acme.vip', 34);
INSERT INTO public.streams VALUES ('seamless-beta:cy', 7);
INSERT INTO public.streams VALUES ('table-beta.main', 20);


--
-- Data for Name: table_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.table_checkpoints VALUES ('acme.vip', 2, '\x7b227461626c655f6964223a2261636d652e766970222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a227275737369616e222c2263757272656e6379223a22455552222c22626f786573223a342c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a747275652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a747275652c226d61785f65786368616e67655f6361726473223a352c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a66616c73652c226465616c65725f64726177223a747275652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2261636d65222c22736861726564223a66616c73652c227365617473223a5b6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a312c22636f6d6d69746d656e74223a2237306538643034376632303338633935396533306633613566366164656234303261326261316666306536316239663034383963613063393235346564373766222c2273656564223a22716b48716f37754d6c2b56384c4d534b314457515a68384771763476685150636557534b4f43487469704d3d222c226465636b223a7b226b6579223a22716b48716f37754d6c2b56384c4d534b314457515a68384771763476685150636557534b4f43487469704d3d222c226361726473223a5b225173222c224a73222c223973222c225164222c224a64222c223963222c225168222c224a68222c224168222c223563222c223463222c224b64222c223764222c223864222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224b68222c223264222c223364222c223464222c223564222c223664222c223964222c225464222c224164222c223263222c223363222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a312c2270726576696f7573223a6e756c6c2c226c6173745f62657473223a7b7d7d');
INSERT INTO public.table_checkpoints VALUES ('beta.main', 2, '\x7b227461626c655f6964223a22626574612e6d61696e222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a226f61736973222c2263757272656e6379223a22455552222c22626f786573223a362c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a66616c73652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a66616c73652c226d61785f65786368616e67655f6361726473223a312c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a747275652c226465616c65725f64726177223a66616c73652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2262657461222c22736861726564223a66616c73652c227365617473223a5b6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a312c22636f6d6d69746d656e74223a2265366334393438373465313764666365643030346633363635363036646135386537346663363337363437353032393335346361323635643161313130393762222c2273656564223a22366c516d787a4f56316e595064767a494d73376b2f77486a75495a4c4c454f50556c47794b65655a786c303d222c226465636b223a7b226b6579223a22366c516d787a4f56316e595064767a494d73376b2f77486a75495a4c4c454f50556c47794b65655a786c303d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a312c2270726576696f7573223a6e756c6c2c226c6173745f62657473223a7b7d7d');
INSERT INTO public.table_checkpoints VALUES ('acme.vip', 17, '\x7b227461626c655f6964223a2261636d652e766970222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a227275737369616e222c2263757272656e6379223a22455552222c22626f786573223a342c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a747275652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a747275652c226d61785f65786368616e67655f6361726473223a352c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a66616c73652c226465616c65725f64726177223a747275652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2261636d65222c22736861726564223a66616c73652c227365617473223a5b2261636d653a616e6e222c2261636d653a626f62222c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2265363962626437376232333732346665306266383332303566366434383836353032643439623061343235336336643935623939656538363262306364623033222c2273656564223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226465636b223a7b226b6579223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226361726473223a5b225173222c224a73222c223973222c225164222c224a64222c223963222c225168222c224a68222c224168222c223563222c223463222c224b64222c223764222c223864222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224b68222c223264222c223364222c223464222c223564222c223664222c223964222c225464222c224164222c223263222c223363222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a322c2270726576696f7573223a7b226e756d626572223a312c22636f6d6d69746d656e74223a2237306538643034376632303338633935396533306633613566366164656234303261326261316666306536316239663034383963613063393235346564373766222c2273656564223a22716b48716f37754d6c2b56384c4d534b314457515a68384771763476685150636557534b4f43487469704d3d222c226465636b223a7b226b6579223a22716b48716f37754d6c2b56384c4d534b314457515a68384771763476685150636557534b4f43487469704d3d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224b68222c223264222c223364222c223464222c223564222c223664222c223964222c225464222c224164222c223263222c223363222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a2261636d653a626f62222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3230302c22696e737572616e6365223a302c226361726473223a5b224a73222c224a64222c224a68222c223463222c223864225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3330302c22776f6e223a3630302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b224a73222c224a68222c224a64225d7d5d7d2c7b226e756d626572223a322c22706c61796572223a2261636d653a616e6e222c22616e7465223a3230302c22626f6e7573223a3130302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3430302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a3530302c22626f6e75735f68616e64223a2274687265655f6f665f615f6b696e64222c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3630302c22776f6e223a313230302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d5d2c227265616479223a5b2261636d653a616e6e222c2261636d653a626f62225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a31312c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b2261636d653a616e6e223a5b7b22626f78223a322c22616e7465223a3230302c22626f6e7573223a3130302c226461726b223a66616c73657d5d2c2261636d653a626f62223a5b7b22626f78223a312c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d');
INSERT INTO public.table_checkpoints VALUES ('acme.vip', 31, '\x7b227461626c655f6964223a2261636d652e766970222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a227275737369616e222c2263757272656e6379223a22455552222c22626f786573223a342c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a747275652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a747275652c226d61785f65786368616e67655f6361726473223a352c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a66616c73652c226465616c65725f64726177223a747275652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2261636d65222c22736861726564223a66616c73652c227365617473223a5b2261636d653a616e6e222c2261636d653a626f62222c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a332c22636f6d6d69746d656e74223a2234316439353636656235333230373037336565636561306430353964306430616365636437633965346235316532613964623333616266376561376336356534222c2273656564223a22623942396648433336324137325a4558314f4f7a5276684f694e4d425a67376d71442b4a32436e644364383d222c226465636b223a7b226b6579223a22623942396648433336324137325a4558314f4f7a5276684f694e4d425a67376d71442b4a32436e644364383d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a332c2270726576696f7573223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2265363962626437376232333732346665306266383332303566366434383836353032643439623061343235336336643935623939656538363262306364623033222c2273656564223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226465636b223a7b226b6579223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224b68222c223264222c223364222c223464222c223564222c223664222c223964222c225464222c224164222c223263222c223363222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a2261636d653a626f62222c22616e7465223a3330302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3630302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3930302c22776f6e223a313830302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d2c7b226e756d626572223a322c22706c61796572223a2261636d653a616e6e222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a302c22696e737572616e6365223a302c226361726473223a5b224a73222c224a64222c224a68222c223463222c223864225d2c2264726577223a66616c73652c226465636973696f6e223a22666f6c64222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22666f6c646564222c2272657475726e6564223a302c22776f6e223a302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b5d7d5d2c227265616479223a5b2261636d653a616e6e222c2261636d653a626f62225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a31322c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b2261636d653a616e6e223a5b7b22626f78223a322c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d2c2261636d653a626f62223a5b7b22626f78223a312c22616e7465223a3330302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d');
INSERT INTO public.table_checkpoints VALUES ('beta.main', 11, '\x7b227461626c655f6964223a22626574612e6d61696e222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a226f61736973222c2263757272656e6379223a22455552222c22626f786573223a362c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a66616c73652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a66616c73652c226d61785f65786368616e67655f6361726473223a312c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a747275652c226465616c65725f64726177223a66616c73652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2262657461222c22736861726564223a66616c73652c227365617473223a5b22626574613a6379222c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2263613466356461363136616662376364383865376231613633393639376538306366656338353339383039643035616632613036643931623465313762633161222c2273656564223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226465636b223a7b226b6579223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a322c2270726576696f7573223a7b226e756d626572223a312c22636f6d6d69746d656e74223a2265366334393438373465313764666365643030346633363635363036646135386537346663363337363437353032393335346361323635643161313130393762222c2273656564223a22366c516d787a4f56316e595064767a494d73376b2f77486a75495a4c4c454f50556c47794b65655a786c303d222c226465636b223a7b226b6579223a22366c516d787a4f56316e595064767a494d73376b2f77486a75495a4c4c454f50556c47794b65655a786c303d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a22626574613a6379222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3230302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3330302c22776f6e223a3730302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d5d2c227265616479223a5b22626574613a6379225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a362c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b22626574613a6379223a5b7b22626f78223a312c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d');
INSERT INTO public.table_checkpoints VALUES ('beta.main', 19, '\x7b227461626c655f6964223a22626574612e6d61696e222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a226f61736973222c2263757272656e6379223a22455552222c22626f786573223a362c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a66616c73652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a66616c73652c226d61785f65786368616e67655f6361726473223a312c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a747275652c226465616c65725f64726177223a66616c73652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2262657461222c22736861726564223a66616c73652c227365617473223a5b22626574613a6379222c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a332c22636f6d6d69746d656e74223a2237643838356535343238353936376264333238663231363664363366393137643866633131383066343261316230633139396436316539653730343663343238222c2273656564223a22482b73564f5a707574595031586541727937655a48436569654866525774766e6a2b556c434f74616874553d222c226465636b223a7b226b6579223a22482b73564f5a707574595031586541727937655a48436569654866525774766e6a2b556c434f74616874553d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a332c2270726576696f7573223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2263613466356461363136616662376364383865376231613633393639376538306366656338353339383039643035616632613036643931623465313762633161222c2273656564223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226465636b223a7b226b6579223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a22626574613a6379222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3230302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3330302c22776f6e223a3730302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d5d2c227265616479223a5b22626574613a6379225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a362c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b22626574613a6379223a5b7b22626f78223a312c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d');


--
-- Data for Name: table_notifications; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: table_states; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.table_states VALUES ('beta.main', 19, '', 'oasis', 'open', 'EUR', '\x7b227461626c655f6964223a22626574612e6d61696e222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a226f61736973222c2263757272656e6379223a22455552222c22626f786573223a362c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a66616c73652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a66616c73652c226d61785f65786368616e67655f6361726473223a312c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a747275652c226465616c65725f64726177223a66616c73652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2262657461222c22736861726564223a66616c73652c227365617473223a5b22626574613a6379222c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a332c22636f6d6d69746d656e74223a2237643838356535343238353936376264333238663231363664363366393137643866633131383066343261316230633139396436316539653730343663343238222c2273656564223a22482b73564f5a707574595031586541727937655a48436569654866525774766e6a2b556c434f74616874553d222c226465636b223a7b226b6579223a22482b73564f5a707574595031586541727937655a48436569654866525774766e6a2b556c434f74616874553d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a332c2270726576696f7573223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2263613466356461363136616662376364383865376231613633393639376538306366656338353339383039643035616632613036643931623465313762633161222c2273656564223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226465636b223a7b226b6579223a2244774c373046346741495136326c37354a57695741354c7342587a534b563661324839474b6d6d2f774d733d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a22626574613a6379222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3230302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3330302c22776f6e223a3730302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d5d2c227265616479223a5b22626574613a6379225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a362c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b22626574613a6379223a5b7b22626f78223a312c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d', '2026-12-02 09:06:36.671591+00', 'beta', false);
INSERT INTO public.table_states VALUES ('acme.vip', 31, '', 'russian', 'open', 'EUR', '\x7b227461626c655f6964223a2261636d652e766970222c226e616d65223a22222c2272756c65736574223a7b2267616d65223a227275737369616e222c2263757272656e6379223a22455552222c22626f786573223a342c226c696768745f626f7865735f7065725f706c61796572223a322c22616e74655f6d696e223a3130302c22616e74655f6d6178223a31303030302c22626f6e75735f656e61626c6564223a747275652c22626f6e75735f6d696e223a3130302c22626f6e75735f6d6178223a313030302c226d61785f7061796f7574223a6e756c6c2c22646f75626c655f636f6d62696e6174696f6e223a747275652c2273747261696768745f706169725f636f756e74735f61735f74776f5f737472616967687473223a747275652c226275795f73697874685f63617264223a747275652c226d61785f65786368616e67655f6361726473223a352c22647261775f6665655f616e746573223a5b312c312c312c312c315d2c2273697874685f636172645f6665655f616e746573223a312c2264697363617264735f72657475726e5f746f5f6465636b223a747275652c22696e737572616e63655f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c22696e737572616e63655f6d6178223a227061796f7574222c22616e74655f706179735f6f6e5f77696e223a66616c73652c226465616c65725f64726177223a747275652c226465616c65725f7265647261775f6c696d6974223a6e756c6c2c22696e737572616e63655f72657475726e65645f61667465725f6465616c65725f64726177223a66616c73652c22626f6e75735f6d696e5f68616e64223a2274687265655f6f665f615f6b696e64222c226265745f7061797461626c65223a7b22616b223a312c2270616972223a312c2274776f5f70616972223a322c2274687265655f6f665f615f6b696e64223a332c227374726169676874223a342c22666c757368223a352c2266756c6c5f686f757365223a372c22666f75725f6f665f615f6b696e64223a32302c2273747261696768745f666c757368223a35302c22726f79616c5f666c757368223a3130307d2c22626f6e75735f7061797461626c65223a7b2274687265655f6f665f615f6b696e64223a352c227374726169676874223a34302c22666c757368223a35302c2266756c6c5f686f757365223a37302c22666f75725f6f665f615f6b696e64223a3230302c2273747261696768745f666c757368223a3530302c22726f79616c5f666c757368223a313030307d2c2262657474696e675f74696d656f75745f73223a33302c226465636973696f6e5f74696d656f75745f73223a33302c226162616e646f6e65645f726f756e645f61667465725f73223a38363430302c22626f785f63617264735f7075626c6963223a66616c73652c22706c617965725f7365656473223a747275657d2c2272756c657365745f76657273696f6e223a312c22737461747573223a226f70656e222c22707269766174655f666f72223a6e756c6c2c226f70657261746f725f6964223a2261636d65222c22736861726564223a66616c73652c227365617473223a5b2261636d653a616e6e222c2261636d653a626f62222c6e756c6c2c6e756c6c5d2c22726f756e64223a7b226e756d626572223a332c22636f6d6d69746d656e74223a2234316439353636656235333230373037336565636561306430353964306430616365636437633965346235316532613964623333616266376561376336356534222c2273656564223a22623942396648433336324137325a4558314f4f7a5276684f694e4d425a67376d71442b4a32436e644364383d222c226465636b223a7b226b6579223a22623942396648433336324137325a4558314f4f7a5276684f694e4d425a67376d71442b4a32436e644364383d222c226361726473223a5b225173222c223973222c225164222c223963222c225168222c224168222c223563222c224b64222c223764222c223268222c223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224a73222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224a68222c224b68222c223264222c223364222c223464222c223564222c223664222c223864222c223964222c225464222c224a64222c224164222c223263222c223363222c223463222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a2262657474696e67222c22626f786573223a5b5d2c227265616479223a5b5d2c226465616c6572223a5b5d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a6e756c6c2c226163746976697479223a302c226162616e646f6e6564223a6e756c6c7d2c22726f756e64735f6f70656e6564223a332c2270726576696f7573223a7b226e756d626572223a322c22636f6d6d69746d656e74223a2265363962626437376232333732346665306266383332303566366434383836353032643439623061343235336336643935623939656538363262306364623033222c2273656564223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226465636b223a7b226b6579223a226d4d746d426637676b656b4f4a4a384d4656797a69355439314b457047596e644b346559714a50356664553d222c226361726473223a5b223273222c223373222c223473222c223573222c223673222c223773222c223873222c225473222c224b73222c224173222c223368222c223468222c223568222c223668222c223768222c223868222c223968222c225468222c224b68222c223264222c223364222c223464222c223564222c223664222c223964222c225464222c224164222c223263222c223363222c223663222c223763222c223863222c225463222c224a63222c225163222c224b63222c224163225d2c22637572736f72223a307d2c227363726970746564223a747275652c227068617365223a22736574746c6564222c22626f786573223a5b7b226e756d626572223a312c22706c61796572223a2261636d653a626f62222c22616e7465223a3330302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a3630302c22696e737572616e6365223a302c226361726473223a5b225173222c225164222c225168222c223563222c223764225d2c2264726577223a66616c73652c226465636973696f6e223a22706c6179222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22776f6e222c2272657475726e6564223a3930302c22776f6e223a313830302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b7b2263617465676f7279223a2274687265655f6f665f615f6b696e64222c226361726473223a5b225173222c225168222c225164225d7d5d7d2c7b226e756d626572223a322c22706c61796572223a2261636d653a616e6e222c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73652c22636c69656e745f73656564223a6e756c6c2c22626574223a302c22696e737572616e6365223a302c226361726473223a5b224a73222c224a64222c224a68222c223463222c223864225d2c2264726577223a66616c73652c226465636973696f6e223a22666f6c64222c226465616c65725f64726177223a6e756c6c2c22736574746c6564223a747275652c2266656573223a302c22626f6e75735f776f6e223a302c22626f6e75735f68616e64223a6e756c6c2c22626f6e75735f636170706564223a302c226f7574636f6d65223a22666f6c646564222c2272657475726e6564223a302c22776f6e223a302c22636170706564223a302c22636f6d62696e6174696f6e73223a5b5d7d5d2c227265616479223a5b2261636d653a616e6e222c2261636d653a626f62225d2c226465616c6572223a5b223973222c223963222c224168222c224b64222c223268225d2c227365745f6173696465223a5b5d2c226465616c65725f7175616c6966696564223a747275652c226163746976697479223a31322c226162616e646f6e6564223a6e756c6c7d2c226c6173745f62657473223a7b2261636d653a616e6e223a5b7b22626f78223a322c22616e7465223a3130302c22626f6e7573223a302c226461726b223a66616c73657d5d2c2261636d653a626f62223a5b7b22626f78223a312c22616e7465223a3330302c22626f6e7573223a302c226461726b223a66616c73657d5d7d7d', '2026-12-02 09:06:36.33465+00', 'acme', false);


--
-- Data for Name: test_decks; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: timers; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.timers VALUES ('acme.vip:3:decision:1:dealt', 'acme.vip', '2026-12-02 09:07:06.387192+00', '{"box": 1, "type": "DecisionTimeUp", "phase": "decision", "round": 3}');
INSERT INTO public.timers VALUES ('acme.vip:3:abandoned:3', 'acme.vip', '2026-12-03 09:06:36.387192+00', '{"type": "CompleteAbandonedRound", "round": 3, "activity": 3}');
INSERT INTO public.timers VALUES ('beta.main:3:betting', 'beta.main', '2026-12-02 09:07:06.706575+00', '{"type": "BettingTimeUp", "round": 3}');
INSERT INTO public.timers VALUES ('beta.main:3:abandoned:1', 'beta.main', '2026-12-03 09:06:36.706575+00', '{"type": "CompleteAbandonedRound", "round": 3, "activity": 1}');


--
-- Data for Name: wallet_transactions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.wallet_transactions VALUES (1, 'beta', 'bet-48a96d07c41f4e7ca7741eee8ee4f198-0', 'bet', 'cy', 's-1b007751717c273f9a639352', 'EUR', 100, 'ante', 'beta.main', 1, 1, false, NULL, NULL, 'beta.main/beta:cy:k20', '48a96d07-c41f-4e7c-a774-1eee8ee4f198', 'committed', 'ok', 'RW-1', 29900, 1, '2026-12-02 09:06:36.437142+00', NULL, '2026-12-02 09:06:36.437142+00', '2026-12-02 09:06:36.458387+00');
INSERT INTO public.wallet_transactions VALUES (2, 'beta', 'bet-21e75ef4045c480b88c9dda82b6d7106-0', 'bet', 'cy', 's-1b007751717c273f9a639352', 'EUR', 200, 'bet', 'beta.main', 1, 1, false, NULL, NULL, 'beta.main/beta:cy:k22', '21e75ef4-045c-480b-88c9-dda82b6d7106', 'committed', 'ok', 'RW-2', 29700, 1, '2026-12-02 09:06:36.490698+00', NULL, '2026-12-02 09:06:36.490698+00', '2026-12-02 09:06:36.511249+00');
INSERT INTO public.wallet_transactions VALUES (3, 'beta', 'win-c055965a-0cc6-5b24-b193-3544b6879f7d', 'win', 'cy', 's-1b007751717c273f9a639352', 'EUR', 1000, 'win', 'beta.main', 1, 1, true, NULL, '{bet-48a96d07c41f4e7ca7741eee8ee4f198-0,bet-21e75ef4045c480b88c9dda82b6d7106-0}', NULL, NULL, 'delivered', 'ok', 'RW-3', 30700, 1, '2026-12-02 09:06:36.511249+00', NULL, '2026-12-02 09:06:36.511249+00', '2026-12-02 09:06:36.540899+00');
INSERT INTO public.wallet_transactions VALUES (4, 'beta', 'bet-e03e175059d04d07864b79c865fcc5a5-0', 'bet', 'cy', 's-1b007751717c273f9a639352', 'EUR', 100, 'ante', 'beta.main', 2, 1, false, NULL, NULL, 'beta.main/beta:cy:k23', 'e03e1750-59d0-4d07-864b-79c865fcc5a5', 'committed', 'ok', 'RW-4', 30600, 1, '2026-12-02 09:06:36.554714+00', NULL, '2026-12-02 09:06:36.554714+00', '2026-12-02 09:06:36.573974+00');
INSERT INTO public.wallet_transactions VALUES (5, 'beta', 'bet-af361b3535c149889b4913fd3779615a-0', 'bet', 'cy', 's-1b007751717c273f9a639352', 'EUR', 200, 'bet', 'beta.main', 2, 1, false, NULL, NULL, 'beta.main/beta:cy:k25', 'af361b35-35c1-4988-9b49-13fd3779615a', 'committed', 'ok', 'RW-5', 30400, 1, '2026-12-02 09:06:36.631611+00', NULL, '2026-12-02 09:06:36.631611+00', '2026-12-02 09:06:36.671591+00');
INSERT INTO public.wallet_transactions VALUES (6, 'beta', 'win-7e81746e-c440-54da-8282-1dd44e074192', 'win', 'cy', 's-1b007751717c273f9a639352', 'EUR', 1000, 'win', 'beta.main', 2, 1, true, NULL, '{bet-e03e175059d04d07864b79c865fcc5a5-0,bet-af361b3535c149889b4913fd3779615a-0}', NULL, NULL, 'delivered', 'ok', 'RW-6', 31400, 1, '2026-12-02 09:06:36.671591+00', NULL, '2026-12-02 09:06:36.671591+00', '2026-12-02 09:06:36.692655+00');
INSERT INTO public.wallet_transactions VALUES (7, 'beta', 'bet-e7f9f52c75d8411a9a2b50a70f4cf04f-0', 'bet', 'cy', 's-1b007751717c273f9a639352', 'EUR', 100, 'ante', 'beta.main', 3, 1, false, NULL, NULL, 'beta.main/beta:cy:k26', 'e7f9f52c-75d8-411a-9a2b-50a70f4cf04f', 'committed', 'ok', 'RW-7', 31300, 1, '2026-12-02 09:06:36.694447+00', NULL, '2026-12-02 09:06:36.694447+00', '2026-12-02 09:06:36.706575+00');


--
-- Data for Name: wallets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.wallets VALUES ('acme:bob', 'EUR', 21400, 11, '2026-12-02 09:06:36.33465+00');
INSERT INTO public.wallets VALUES ('acme:ann', 'EUR', 51500, 9, '2026-12-02 09:06:36.372211+00');


--
-- Name: events_global_position_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.events_global_position_seq', 81, true);


--
-- Name: wallet_transactions_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.wallet_transactions_seq_seq', 7, true);


--
-- Name: abandoned_rounds abandoned_rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.abandoned_rounds
    ADD CONSTRAINT abandoned_rounds_pkey PRIMARY KEY (table_id, round);


--
-- Name: audit_rounds audit_rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_rounds
    ADD CONSTRAINT audit_rounds_pkey PRIMARY KEY (table_id, round);


--
-- Name: audit_tables audit_tables_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_tables
    ADD CONSTRAINT audit_tables_pkey PRIMARY KEY (table_id);


--
-- Name: availability_log availability_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.availability_log
    ADD CONSTRAINT availability_log_pkey PRIMARY KEY (global_position);


--
-- Name: chain_checkpoint_leaves chain_checkpoint_leaves_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chain_checkpoint_leaves
    ADD CONSTRAINT chain_checkpoint_leaves_pkey PRIMARY KEY (seq, stream_id);


--
-- Name: chain_checkpoints chain_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chain_checkpoints
    ADD CONSTRAINT chain_checkpoints_pkey PRIMARY KEY (seq);


--
-- Name: commands commands_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commands
    ADD CONSTRAINT commands_pkey PRIMARY KEY (command_id);


--
-- Name: events events_event_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_event_id_key UNIQUE (event_id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (global_position);


--
-- Name: events events_stream_id_stream_version_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_stream_id_stream_version_key UNIQUE (stream_id, stream_version);


--
-- Name: game_sessions game_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_sessions
    ADD CONSTRAINT game_sessions_pkey PRIMARY KEY (session_id);


--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (scope, key);


--
-- Name: ledger ledger_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger
    ADD CONSTRAINT ledger_pkey PRIMARY KEY (global_position);


--
-- Name: operator_credentials operator_credentials_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.operator_credentials
    ADD CONSTRAINT operator_credentials_pkey PRIMARY KEY (key_id);


--
-- Name: operators operators_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.operators
    ADD CONSTRAINT operators_pkey PRIMARY KEY (operator_id);


--
-- Name: projection_checkpoints projection_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projection_checkpoints
    ADD CONSTRAINT projection_checkpoints_pkey PRIMARY KEY (name);


--
-- Name: round_boxes round_boxes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.round_boxes
    ADD CONSTRAINT round_boxes_pkey PRIMARY KEY (table_id, round, box);


--
-- Name: rounds rounds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_pkey PRIMARY KEY (table_id, round);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: snapshots snapshots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshots
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (stream_id);


--
-- Name: streams streams_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.streams
    ADD CONSTRAINT streams_pkey PRIMARY KEY (stream_id);


--
-- Name: table_checkpoints table_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.table_checkpoints
    ADD CONSTRAINT table_checkpoints_pkey PRIMARY KEY (table_id, version);


--
-- Name: table_notifications table_notifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.table_notifications
    ADD CONSTRAINT table_notifications_pkey PRIMARY KEY (operator_id, notification_id);


--
-- Name: table_states table_states_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.table_states
    ADD CONSTRAINT table_states_pkey PRIMARY KEY (table_id);


--
-- Name: test_decks test_decks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_decks
    ADD CONSTRAINT test_decks_pkey PRIMARY KEY (table_id);


--
-- Name: timers timers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.timers
    ADD CONSTRAINT timers_pkey PRIMARY KEY (timer_key);


--
-- Name: wallet_transactions wallet_transactions_operator_id_transaction_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_transactions
    ADD CONSTRAINT wallet_transactions_operator_id_transaction_id_key UNIQUE (operator_id, transaction_id);


--
-- Name: wallet_transactions wallet_transactions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallet_transactions
    ADD CONSTRAINT wallet_transactions_pkey PRIMARY KEY (seq);


--
-- Name: wallets wallets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.wallets
    ADD CONSTRAINT wallets_pkey PRIMARY KEY (wallet_id);


--
-- Name: audit_rounds_opened_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_rounds_opened_at_idx ON public.audit_rounds USING btree (opened_at);


--
-- Name: audit_rounds_settled_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_rounds_settled_at_idx ON public.audit_rounds USING btree (settled_at);


--
-- Name: availability_log_operator_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX availability_log_operator_idx ON public.availability_log USING btree (operator_id, global_position);


--
-- Name: availability_log_table_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX availability_log_table_idx ON public.availability_log USING btree (table_id, global_position);


--
-- Name: availability_log_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX availability_log_time_idx ON public.availability_log USING btree (recorded_at, global_position);


--
-- Name: events_money_command_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_money_command_id_idx ON public.events USING btree (((metadata ->> 'command_id'::text))) WHERE (starts_with(stream_id, 'wallet-'::text) OR starts_with(stream_id, 'seamless-'::text));


--
-- Name: events_round_opened_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_round_opened_idx ON public.events USING btree (stream_id, (((data ->> 'round'::text))::integer)) WHERE (event_type = 'RoundOpened'::text);


--
-- Name: events_round_settled_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_round_settled_idx ON public.events USING btree (stream_id, (((data ->> 'round'::text))::integer)) WHERE (event_type = 'RoundSettled'::text);


--
-- Name: events_tx_id_global_position_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_tx_id_global_position_idx ON public.events USING btree (tx_id, global_position);


--
-- Name: game_sessions_player_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX game_sessions_player_idx ON public.game_sessions USING btree (operator_id, player_id, created_at DESC);


--
-- Name: ledger_wallet_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_wallet_idx ON public.ledger USING btree (wallet_id, global_position DESC);


--
-- Name: operator_credentials_operator_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX operator_credentials_operator_idx ON public.operator_credentials USING btree (operator_id, created_at);


--
-- Name: round_boxes_player_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX round_boxes_player_idx ON public.round_boxes USING btree (player, settled_at DESC);


--
-- Name: rounds_settled_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX rounds_settled_idx ON public.rounds USING btree (settled_at);


--
-- Name: table_notifications_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX table_notifications_due_idx ON public.table_notifications USING btree (next_attempt_at) WHERE (state = 'queued'::text);


--
-- Name: table_states_operator_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX table_states_operator_idx ON public.table_states USING btree (operator_id, table_id);


--
-- Name: timers_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timers_due_idx ON public.timers USING btree (due_at);


--
-- Name: timers_table_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timers_table_idx ON public.timers USING btree (table_id);


--
-- Name: wallet_open_bets_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_open_bets_idx ON public.wallet_transactions USING btree (attempt_id) WHERE (status = ANY (ARRAY['pending'::text, 'accepted'::text]));


--
-- Name: wallet_outbox_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_outbox_idx ON public.wallet_transactions USING btree (operator_id, player_id, seq) WHERE (status = 'queued'::text);


--
-- Name: wallet_transactions_round_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_transactions_round_idx ON public.wallet_transactions USING btree (table_id, round, operator_id, player_id);


--
-- Name: wallet_transactions_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX wallet_transactions_time_idx ON public.wallet_transactions USING btree (operator_id, created_at, seq);


--
-- Name: events events_chain; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_chain BEFORE INSERT ON public.events FOR EACH ROW EXECUTE FUNCTION public.events_chain();


--
-- Name: chain_checkpoint_leaves chain_checkpoint_leaves_seq_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chain_checkpoint_leaves
    ADD CONSTRAINT chain_checkpoint_leaves_seq_fkey FOREIGN KEY (seq) REFERENCES public.chain_checkpoints(seq);


--
-- PostgreSQL database dump complete
--

\unrestrict sJ3r0Nf0ORvXlJQmwtjIGtvOsYXiQuw1TESP930f30VkN0F1iiy4GIIuae1vnko

