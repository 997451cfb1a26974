"""Victory Roads (Nicolas Rident; the "Roads" system): the foundation of
the engine, not yet a playable game.

What is here: the rule profiles (``profile``: the Basic game is the
Advanced engine with each Advanced rule switched off), the component model
(``model``), the scenario reader (``scenario``: every ``"MISSING"`` value
named by kind, a file with gaps refused), the rulebook's own tables
(``tables``), the board index (``board``) and the pure Basic mechanics
(``weather``, ``combat``, ``terrain``, ``stacking``, ``supply``).  There is
no ``GAME`` object and no entry point yet, so ``pbem scenarios`` does not
list a game that cannot be played.
"""
