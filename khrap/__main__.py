"""``python -m khrap``: the ``khrap`` command (a checkout run without installing, as docs/serve.md's
developers do: ``PYTHONPATH=$PWD python -m khrap serve``; it said "No module named khrap.__main__")."""

from khrap.cli import main

main()
