"""The shipped example game verifies against the shipped scenario, both as
a file and as the email made for it."""
from __future__ import annotations

from pathlib import Path

from pbem import session
from pbem.protocol import gamefile

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_game_file_verifies() -> None:
    loaded = session.open_game(EXAMPLES / "avd-anna-pavel-005.toml", None)
    assert len(loaded.match.exchanges) == 5
    assert loaded.match.next_sender() == "soviet"


def test_example_email_carries_the_same_game() -> None:
    a = session.load_game(EXAMPLES / "avd-anna-pavel-005.eml")
    b = session.load_game(EXAMPLES / "avd-anna-pavel-005.toml")
    assert [e["sig"] for e in a.exchanges] == [e["sig"] for e in b.exchanges]
