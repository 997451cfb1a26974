"""Victory Roads (Nicolas Rident; the "Roads" system): one engine for the
Basic game (§1-8) and, rule by rule, the Advanced game (§9-19).

``GAME`` (:mod:`pbem.games.vr.game`) is the object the protocol drives.
The rule profiles (``profile``: the Basic game is the Advanced engine with
each Advanced rule switched off), the component model (``model``), the
scenario reader (``scenario``), the rulebook's own tables (``tables``), the
board index (``board``), the pure mechanics (``weather``, ``combat``,
``terrain``, ``stacking``, ``supply``, ``moves``, ``losses``) and the
sequence of play (``rules`` with the frames of ``seq_turn`` and
``seq_battle``; Supports face down on the core's hidden-item service,
``supports``).
"""
from pbem.games.vr.game import GAME

__all__ = ["GAME"]
