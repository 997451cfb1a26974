"""Signatures checked by a second thread (speed only, issue 7): a replay
of a long file hands each exchange's Ed25519 check to a thread
(pbem.cycle.background.Background) and goes on.  The verdict and its message
must be those of the plain replay, which checks each signature where it
meets it: the first failure in file order wins, and within an exchange a
bad signature comes before anything its replay finds."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle, session
from pbem.cycle import background
from pbem.errors import PbemError
from pbem.protocol.gamefile import GameFile

SCENARIO_FILE = str(eh.DATA / "scenarios" / "duel" / "test.toml")
PLAIN = 10**9        # no file is this long: every check where it is met
THREADED = 1         # every file: every check handed to the thread


@pytest.fixture(scope="module")
def game() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    return eh.duel_played(6)


def verdict(gf: GameFile, sc: dict[str, Any], background_from: int, monkeypatch: Any) -> str:
    """The replay's message, or the hashes of its states when it accepts
    (the state hashes checked where they are met)."""
    return eh.kept_verdict(gf, sc, monkeypatch, background_from, PLAIN)


def both(gf: GameFile, sc: dict[str, Any], monkeypatch: Any) -> str:
    plain = verdict(gf, sc, PLAIN, monkeypatch)
    assert verdict(gf, sc, THREADED, monkeypatch) == plain
    return plain


def altered(gf: GameFile, at: int, **fields: Any) -> GameFile:
    exchanges = [dict(ex) for ex in gf.exchanges]
    exchanges[at - 1].update(fields)
    return GameFile(exchanges)  # type: ignore[arg-type]


def test_the_honest_game_is_accepted_alike(game, monkeypatch) -> None:
    gf, sc, _ = game
    assert both(gf, sc, monkeypatch).startswith("accepted ")


def test_a_forged_state_is_a_bad_signature_at_its_exchange(game, monkeypatch) -> None:
    """The replay finds the state hash wrong at exchange 4 before the
    thread has said anything: the bad signature is still what is told."""
    gf, sc, _ = game
    forged = altered(gf, 4, state="0" * 64)
    assert both(forged, sc, monkeypatch) == (
        f"Verification: exchange 4 by {gf.exchanges[3]['side']}: bad signature: altered after signing, "
        f"or not signed by {gf.exchanges[3]['side']}'s key")


def test_the_first_bad_signature_wins_over_a_later_refusal(game, monkeypatch) -> None:
    """Exchange 3's signature is bad; exchange 6 is numbered wrong (found
    before its signature is even looked at)."""
    gf, sc, _ = game
    forged = altered(altered(gf, 3, message="hello"), 6, n=9)
    assert both(forged, sc, monkeypatch).startswith("Verification: exchange 3 by ")


def test_an_earlier_refusal_wins_over_a_later_bad_signature(game, monkeypatch) -> None:
    gf, sc, _ = game
    forged = altered(altered(gf, 5, message="hello"), 3, n=9)
    assert both(forged, sc, monkeypatch) == f"Verification: exchange 3 by {gf.exchanges[2]['side']}: numbered 9, expected 3"


def test_a_file_bad_only_at_its_last_signature(game, monkeypatch) -> None:
    gf, sc, _ = game
    forged = altered(gf, len(gf.exchanges), message="hello")
    assert f"exchange {len(gf.exchanges)} by " in both(forged, sc, monkeypatch)


def test_the_other_seat_s_key_is_named(game, monkeypatch) -> None:
    """Exchange 4 re-signed by the seat that did not send it."""
    gf, sc, ids = game
    forged, message = eh.signed_by_other(gf, ids, 4)
    assert both(forged, sc, monkeypatch) == message


def test_sampled_byte_changes_get_the_same_verdict(game, monkeypatch, tmp_path) -> None:
    """Single-byte mutants of the written file: the threaded replay says
    what the plain one says, every time."""
    gf, sc, _ = game
    m = cycle.replay(gf, sc)
    data = session.refresh_reading_copies(gf, m).to_toml().encode("utf-8")
    rng = random.Random(719)
    path = tmp_path / "mutant.toml"
    refused = 0
    signed = data.index(b"\n[state]")     # the exchanges; the reading copy after them is checked by the session
    for pos in rng.sample(range(signed), 1000):
        path.write_bytes(data[:pos] + bytes([rng.choice([b for b in range(256) if b != data[pos]])]) + data[pos + 1:])
        try:
            mutant = session.load_game(Path(path))
        except PbemError:
            continue
        refused += not both(mutant, sc, monkeypatch).startswith("accepted ")
    assert refused > 60, refused


def test_the_thread_is_used_only_for_a_long_file_with_a_free_core(monkeypatch) -> None:
    monkeypatch.setattr(background, "BACKGROUND_FROM", 16)
    monkeypatch.setattr(background, "core_free", lambda: True)
    assert background.Background.for_file(15) is None
    checks = background.Background.for_file(16)
    assert checks is not None and checks.settle() is None
    monkeypatch.setattr(background, "core_free", lambda: False)
    assert background.Background.for_file(500) is None
