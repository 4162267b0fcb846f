"""The storage adapter: PostgreSQL, through asyncpg. Every SQL statement of the service is
here (and in the migrations): the event store, the unit of work one command writes, and
the read models' queries."""
