"""Loading one of pbem's own games reads only pbem's own entry points, and
says what the full scan of the installed distributions says."""
from __future__ import annotations

import subprocess
import sys

from pbem import games


def test_own_games_are_what_the_installed_metadata_lists_for_pbem():
    from importlib.metadata import entry_points

    scanned = {}
    for ep in entry_points(group=games.GROUP):
        if ep.dist is not None and games._normal(ep.dist.name) == "pbem":
            scanned.setdefault(ep.name, ep.value)
    own = games._own_games()
    assert own is not None and own == scanned and list(own) == list(scanned)
    for gid in own:
        assert games.known(gid) and games._target(gid) == games.registered()[gid]
    assert not games.known("no-such-game")


def test_loading_an_own_game_needs_no_metadata_scan():
    code = ("import sys; from pbem import games, scenario; games.load('avd'); scenario.find('avd/practice'); "
            "print('importlib.metadata' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "False"


def test_entry_points_text_read_plainly_or_not_at_all():
    text = ("[console_scripts]\npbem = pbem.cli:main\n\n# a comment\n[pbem.games]\n"
            "b = x.b:GAME\na = x.a:GAME [extra]\nb = x.other:GAME\n\n[other]\nc = y:Z\n")
    assert games._group_of(text) == {"b": "x.b:GAME", "a": "x.a:GAME [extra]"}
    assert games._group_of("[pbem.games]\nno equals sign\n") is None
    assert games._group_of("[pbem.games]\na = x:G\n  continued\n") is None
    assert games._group_of("[other]\na = x:G\n") == {}
