"""pbem.journal: the exchange under construction, kept once a roll has been
shown (issue 8 item 7), and Turn's lock on shown rolls."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import enginehelp
from pbem import cycle, journal
from pbem.game import IllegalOrder
from pbem.protocol import gamefile


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _before_attack():
    """Immediate dice; red's exchange 5 begins with its attack."""
    gf, scenario, ids = enginehelp.start("immediate")
    gf = enginehelp.one_exchange(gf, scenario, ids)      # 3: red picks
    gf = enginehelp.one_exchange(gf, scenario, ids)      # 4: blue picks
    return cycle.replay(gf, scenario, ids["red"]), ids["red"]


def test_a_shown_roll_locks_the_orders_before_it() -> None:
    m, red = _before_attack()
    t = cycle.Turn(m, red)
    assert t.locked == 0
    t.push("attack")
    assert t.locked == 1 and t.rng.records
    with pytest.raises(IllegalOrder, match="cannot undo: your last order led to dice you have seen"):
        t.undo()
    assert len(t.orders) == 1


def test_orders_without_dice_stay_undoable() -> None:
    gf, scenario, ids = enginehelp.start("immediate")
    t = cycle.Turn(cycle.replay(gf, scenario, ids["red"]), ids["red"])
    t.push("pick 2")
    assert t.locked == 0
    t.undo()
    assert t.orders == []


def test_a_resumed_turn_has_the_same_dice_and_the_same_lock() -> None:
    m, red = _before_attack()
    t = cycle.Turn(m, red)
    t.push("attack")
    kept = journal.from_turn(t)
    again = cycle.Turn(m, red, resume=kept.orders, openings=kept.openings, answers=kept.answers)
    assert again.rng.records == t.rng.records
    assert again.locked == 1
    assert gamefile.drop_none(again.sink.entries) == gamefile.drop_none(t.sink.entries)


def test_journal_is_private_atomic_and_keyed_by_its_base(home: Path) -> None:
    m, red = _before_attack()
    t = cycle.Turn(m, red)
    t.push("attack")
    t.message = "close one"
    j = journal.from_turn(t)
    path = journal.save(j)
    assert path == home / "games" / m.game_id / "journal-0005.toml"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    got = journal.load(m.game_id, 5, j.base, "red")
    assert got is not None and got.orders == [{"verb": "attack"}] and got.locked == 1 and got.message == "close one"
    # Another base (the game moved on, a rewind) or another seat: ignored.
    assert journal.load(m.game_id, 5, "0" * 64, "red") is None
    assert journal.load(m.game_id, 5, j.base, "blue") is None
    assert journal.load(m.game_id, 6, j.base, "red") is None
    journal.save(j)          # replaced in place
    journal.clear(m.game_id, 5)
    assert not path.exists()
    journal.clear(m.game_id, 5)     # nothing to clear: no error


def test_an_unreadable_journal_is_reported_not_ignored(home: Path) -> None:
    from pbem.errors import UsageError

    path = journal.path_for("g-x", 5)
    path.parent.mkdir(parents=True)
    path.write_text('format = "pbem-journal/1"\ngame_id = "g-x"\nn = 5\nbase = "b"\nside = "red"\norders = "{"\n')
    with pytest.raises(UsageError, match="not a journal this program can read"):
        journal.load("g-x", 5, "b", "red")
