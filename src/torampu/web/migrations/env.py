"""Alembic environment of the web tables' database (run by :func:`torampu.web.store.migrate`).

The connection comes from ``config.attributes["connection"]``; the models' metadata is the
target, so ``alembic revision --autogenerate`` compares against :mod:`torampu.web.store`.
"""

from __future__ import annotations

from alembic import context

from torampu.web.store import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only when run from the alembic command line
    from sqlalchemy import create_engine

    from torampu.web.store import normalize_url

    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set sqlalchemy.url (e.g. -x or alembic.ini) to the database URL")
    with create_engine(normalize_url(url)).begin() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
