"""The ``pbem`` command: parse, call the library, print.  No rules here.

Every failure the user can cause ends in one line on stderr and a non-zero
exit (1 for an invalid file or illegal order, 2 for a usage error); nothing
is written unless the whole command succeeded.  The commands live by job in
:mod:`.setup`, :mod:`.play` and :mod:`.records`; :mod:`.base` holds the group.
"""
from __future__ import annotations

from pbem.cli import play, records, setup  # noqa: F401  (registers the commands)
from pbem.cli import mailbox  # noqa: F401  (games, fetch, contacts, password)
from pbem.cli import maps  # noqa: F401  (map)
from pbem.cli import position, replay  # noqa: F401  (position, replay)
from pbem.cli.base import main

__all__ = ["main"]
