"""pbem: a play-by-email adjudicator for operational wargames of the
Russo-German war.  The CLI (:mod:`pbem.cli`) is a thin layer over this
library: :mod:`pbem.protocol` (signatures, dice, sealing; knows no game),
:mod:`pbem.cycle` (the turn cycle), :mod:`pbem.board` (hex and area
kernels) and :mod:`pbem.games` (one package per game; knows no files, keys or
email)."""

__version__ = "0.3.0"
