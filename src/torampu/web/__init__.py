"""The web table: ``torampu serve`` (see ``docs/web.md``).

:mod:`torampu.web.store` keeps tables, seats and actions in SQLite or PostgreSQL;
:mod:`torampu.web.rooms` plays them (server-authoritative, one writer per table, bots and
timers); :mod:`torampu.web.app` is the HTTP and websocket front; ``static/`` the browser page.
"""
