"""``khrap serve``: a table for friends in the browser (the ``web`` extra: Starlette and uvicorn).

- :mod:`khrap.web.table`: one table's game, seats, bots, fair deals and what each seat may see;
- :mod:`khrap.web.store`: SQLite, every table as its setup and its actions;
- :mod:`khrap.web.host`: connections, the protocol, limits, bots on a timer;
- :mod:`khrap.web.app`: the ASGI app (pages, the create form, the WebSocket) and ``serve``.
"""
