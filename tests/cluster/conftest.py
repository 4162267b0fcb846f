from tests.faults.fixtures import fresh_database, http, private_postgres, spawn

__all__ = ["fresh_database", "http", "private_postgres", "spawn"]
