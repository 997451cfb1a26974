"""The ``pbem`` command: parse, call the library, print.  No rules here.

Every failure the user can cause ends in one line on stderr and a non-zero
exit (1 for an invalid file or illegal order, 2 for a usage error); nothing
is written unless the whole command succeeded.  The commands live by job in
:mod:`.setup`, :mod:`.play`, :mod:`.records`, :mod:`.mailbox`, :mod:`.maps`,
:mod:`.position` and :mod:`.replay`; :mod:`.base` holds the group and the
table of commands, which imports a command's module only when it runs (a
quick ``pbem --help``).  :data:`main`, what the ``pbem`` script calls, runs
``pbem verify FILE``, ``pbem --help`` and ``pbem --version`` without
importing click (:mod:`.quick`) and hands everything else to that group.
"""
from __future__ import annotations

# Not typing's: `pbem --help` imports no typing (speed only; mypy reads any
# TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:       # every use but the script's call reaches the click group
    from pbem.cli.base import main
else:
    from pbem.cli.quick import main

__all__ = ["main"]
