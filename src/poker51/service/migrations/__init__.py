"""The service database's Alembic migrations (package data; :func:`poker51.service.store.migrate` runs them)."""
