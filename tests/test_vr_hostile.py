"""Victory Roads' face-down Supports attacked by a modified German program
written here (issue 11: "a modified program that plays a Support it did
not draw is caught").  The program shows, under a handle of its Available
box, a Support it never drew:

* one the rules can rule out at once (a copy the pool never held, a Soviet
  Support, a copy face up on the map, the same copy under two handles) is
  refused live by the Soviet's program and by a bystander's;
* a copy that was really left in the pool cannot be told from an honest
  draw by any program without the German's secrets: every program accepts
  it live, and the end-of-game audit, replaying the German's secret stream,
  refuses the first commit of his hidden items that differs.

The last case once failed now and then: the players' keys and the game's
seeds were fresh each run, and when the first Support the German showed
was of a kind whose other copies were all drawn, there was no undrawn copy
to lie with.  Now it runs on fixed keys and a seeded stand-in for the OS
random source, and the German lies about the first Support he shows for
which an undrawn copy of its kind (another copy of the same Support
included) is left in his pool."""
from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem import cycle
from pbem.cycle import audit
from pbem.games.vr import supports
from pbem.games.vr.rules import VrRules
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import Identity, generate
from pbem.protocol.types import Exchange
from pbem.scenario import load_toml

PRACTICE = Path(__file__).resolve().parent.parent / "scenarios" / "vr" / "practice-basic.toml"
SC = load_toml(PRACTICE)
Patch = Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]]


class Modified:
    """A modified program: ``patch(items, seat, state)`` stands for the
    seat's hidden items, and the owner's own checks do not run (the rules'
    opening constraints and identities, the core's rebuild of its own
    commits; with ``audit_only``, only the last)."""

    def __init__(self, patch: Patch, audit_only: bool = False) -> None:
        self.patch, self.audit_only = patch, audit_only

    def __enter__(self) -> Modified:
        from pbem.cycle import hidden

        self.saved = (VrRules.hidden_items, VrRules.check_opening, VrRules.identity_of, hidden._audit)
        original, patch = self.saved[0], self.patch
        VrRules.hidden_items = lambda self, st, s: patch(original(self, st, s), s, st)  # type: ignore
        if not self.audit_only:
            VrRules.check_opening = lambda *a: None  # type: ignore
            VrRules.identity_of = lambda *a: None  # type: ignore
        hidden._audit = lambda *a: None  # type: ignore
        return self

    def __exit__(self, *exc: object) -> None:
        from pbem.cycle import hidden

        VrRules.hidden_items, VrRules.check_opening, VrRules.identity_of, hidden._audit = self.saved  # type: ignore


def fixed(name: str, email: str) -> Identity:
    """An identity with keys derived from its name (a reproducible game)."""
    return Identity(name=name, email=email, sign_key=hashlib.sha256(f"sign {name}".encode()).digest(),
                    seal_key=hashlib.sha256(f"seal {name}".encode()).digest())


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's seeds, salts and nonces from a seeded generator."""
    gen = random.Random(20240611)
    monkeypatch.setattr(os, "urandom", lambda n: gen.randbytes(n))


def table(dice: str, reproducible: bool = False) -> tuple[GameFile, dict[str, Any]]:
    make = fixed if reproducible else generate
    ids = {"soviet": make("Pavel", "pavel@example.org"), "german": make("Anna", "anna@example.org")}
    gf = cycle.new_game(game_id=f"vr-hostile-{dice}", game="vr", scenario_name="vr/practice-basic", scenario=SC,
                        options={}, dice=dice, creator=ids["soviet"], creator_side="soviet",
                        invited={"german": ids["german"].public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, SC, ids["german"]), ids["german"], "german")])
    return gf, ids


def turn_of(m: Any, me: Any, first: tuple[str, ...] = ()) -> Exchange:
    t = cycle.Turn(m, me)
    for o in first:
        if t.done:
            break                  # an exchange that only hands the dice on takes no order
        t.push(o)
    while not t.done:
        t.push(m.rules.demo_order(t.es["game"], t.pending()))
    return t.finish()


def write(gf: GameFile, ids: dict[str, Any], *first: str) -> GameFile:
    seat = cycle.replay(gf, SC).next_sender()
    assert seat is not None
    m = cycle.replay(gf, SC, ids[seat])
    if not first and not _configured(gf, seat):
        first = tuple(f"policy {k} {v}" for k, v in VR_RULES.demo_policies(seat).items())
    return GameFile(gf.exchanges + [turn_of(m, ids[seat], first)])


def _configured(gf: GameFile, seat: str) -> bool:
    return any(ex.get("side") == seat and any(o["order"].get("verb") == "policy" for o in ex.get("orders", []))
               for ex in gf.exchanges)


def shown(ex: Any) -> list[str]:
    return [h for o in ex.get("orders", []) for h in (o["order"].get("open") or [])]


def german_lies(gf: GameFile, ids: dict[str, Any], lie: Callable[[dict[str, Any], str], Any],
                audit_only: bool = False) -> tuple[GameFile, str]:
    """Play on honestly until the German shows a face-down Support; that
    exchange is written again by his modified program, which claims
    ``lie(state, handle)`` is under the handle it shows.  A lie that
    cannot be told then (``lie`` gives None) leaves the honest exchange
    in place, and the next shown Support is tried."""
    for _ in range(120):
        honest = write(gf, ids)
        ex = honest.exchanges[-1]
        if ex["side"] == "german" and any(x.startswith("g-") for x in shown(ex)):
            h = next(x for x in shown(ex) if x.startswith("g-"))
            m = cycle.replay(gf, SC, ids["german"])
            untold: list[str] = []

            def told(st: dict[str, Any], h: str) -> Any:
                value = lie(st, h)
                if value is None:
                    untold.append(h)
                    return st["hidden"]["german"]["items"][h]
                return value
            with Modified(_lying_about(h, told), audit_only):
                first = () if _configured(gf, "german") else tuple(
                    f"policy {k} {v}" for k, v in VR_RULES.demo_policies("german").items())
                forged = GameFile(gf.exchanges + [turn_of(m, ids["german"], first)])
            if untold:
                gf = honest
                continue
            assert h in shown(forged.exchanges[-1])
            return forged, h
        gf = honest
    raise AssertionError("the German never showed a Support")


def _lying_about(h: str, lie: Callable[[dict[str, Any], str], Any]) -> Patch:
    """The modified program's hidden items: ``lie(state, h)`` under ``h``
    for as long as the handle is in his box."""
    def patch(items: dict[str, Any], seat: str, st: dict[str, Any]) -> dict[str, Any]:
        if seat != "german" or h not in items:
            return items
        return dict(items, **{h: lie(st, h)})
    return patch


def refused_live(forged: GameFile, ids: dict[str, Any], match: str) -> None:
    for who in (ids["soviet"], None):
        with pytest.raises(cycle.Verification, match=match):
            cycle.replay(forged, SC, who)


def _drawn_turn(st: dict[str, Any], h: str) -> int:
    return int(st["supports"]["german"]["drawn_on"][h])


def _honest(st: dict[str, Any], h: str) -> str:
    """What the German really drew under ``h`` (each lie keeps its kind, so
    the order it serves stays one his own program carries out)."""
    return str(st["hidden"]["german"]["items"][h]["support"])


SOVIET_OF_KIND = {"leader": "rybalko", "airplane": "air_support", "plain": "zhukov"}


@pytest.mark.parametrize("dice", ["immediate", "sealed"])
def test_a_copy_the_german_pool_never_held_is_refused_live(dice: str) -> None:
    gf, ids = table(dice)
    forged, h = german_lies(gf, ids, lambda st, h: {"support": _honest(st, h), "copy": 9, "turn": _drawn_turn(st, h)})
    refused_live(forged, ids, f"german's {h}: the german pool never held a copy 9 of ")


def test_a_soviet_support_shown_by_the_german_is_refused_live() -> None:
    gf, ids = table("immediate")
    def soviet(st: dict[str, Any], h: str) -> dict[str, Any]:
        kind = VR_RULES.scn.supports[_honest(st, h)].kind
        return {"support": SOVIET_OF_KIND[kind], "copy": 1, "turn": _drawn_turn(st, h)}

    forged, h = german_lies(gf, ids, soviet)
    refused_live(forged, ids, f"german's {h}: '[a-z_]+' is not a german Support")


def test_a_support_drawn_on_another_turn_is_refused_live() -> None:
    gf, ids = table("immediate")
    forged, h = german_lies(gf, ids, lambda st, h: {"support": _honest(st, h), "copy": 1,
                                                    "turn": _drawn_turn(st, h) + 5})
    refused_live(forged, ids, f"german's {h}: {h} was drawn on turn")


def _undrawn_copies(st: dict[str, Any], h: str) -> list[tuple[str, int]]:
    """Copies still in the German pool of the kind of the one under ``h``
    (of the same kind, so that the order it serves stays legal)."""
    items = st["hidden"]["german"]["items"]
    if h not in items or "support" not in items[h]:
        return []
    honest = (items[h]["support"], items[h]["copy"])
    kind = VR_RULES.scn.supports[honest[0]].kind
    return [c for c in supports.pool(VR_RULES.scn, st["supports"], "german", items)
            if VR_RULES.scn.supports[c[0]].kind == kind and c != honest]


def test_a_pool_copy_the_german_never_drew_passes_live_and_is_caught_at_the_audit(seeded: None) -> None:
    """The lie every program must accept: a copy still in the pool, drawn
    on the right turn.  Only the audit, replaying the German's secret
    stream, sees that his commits were not of what he drew."""
    gf, ids = table("immediate", reproducible=True)

    def undrawn(st: dict[str, Any], h: str) -> dict[str, Any] | None:
        left = _undrawn_copies(st, h)
        if not left:
            return None                           # nothing undrawn of its kind: try the next one he shows
        sid, k = left[0]
        return {"support": sid, "copy": k, "turn": _drawn_turn(st, h)}

    forged, h = german_lies(gf, ids, undrawn, audit_only=True)
    for who in (ids["soviet"], None):
        cycle.replay(forged, SC, who)                            # nothing to see live
    while not cycle.replay(forged, SC).over():
        forged = write(forged, ids, "resign")
    while True:
        seat = audit.next_discloser(cycle.replay(forged, SC))
        if seat is None:
            break
        if seat == "german":
            with Modified(_lying_about(h, undrawn), audit_only=True):
                mine = cycle.replay(forged, SC, ids[seat])      # his program replays its own lie
        else:
            mine = cycle.replay(forged, SC, ids[seat])
        forged = GameFile(forged.exchanges + [cycle.disclose_exchange(mine, ids[seat])])
    with pytest.raises(cycle.Verification, match="german's commit \\d+ of its hidden items differs from the replay"):
        cycle.replay(forged, SC, None, audit=True)


def _rules() -> VrRules:
    from pbem.games.vr import scenario
    return VrRules(scenario.load(SC))


VR_RULES = _rules()
