-- A launched session's end is checked by the statements a command already sends (its bets'
-- lock, its append), not by a round trip of its own before them (docs/benchmarks.md,
-- "Issue 26"). One definition of "still open", read by every statement that asks.
CREATE FUNCTION game_session_is_open(p_session_id text) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT FROM game_sessions
        WHERE session_id = p_session_id AND ended_at IS NULL AND expires_at > now()
    )
$$;

-- The append's guard: the command fails, writing nothing, if its session has ended or
-- expired by the time the statement runs. ES003 is the store's "session ended"
-- (events/postgres/store.py).
CREATE FUNCTION game_session_open(p_session_id text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF NOT game_session_is_open(p_session_id) THEN
        RAISE EXCEPTION 'the game session % has ended', p_session_id USING ERRCODE = 'ES003';
    END IF;
    RETURN true;
END
$$;
