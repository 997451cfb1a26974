"""Sealed dice and teams: may a die served by an exchange's stream have been
foreseen by the side whose choice decided it, when team-mates share their
secrets and reveals offline?

The game is Sortie (below, a fixture of this file): north and south play for
red, blue alone.  Each round south picks a card in secret, the *aimer* (a
rule option: north, south's team-mate; south himself; or blue) calls a face
``aim N``, south's program turns the card up (a private answer, fixed by the
card's commitment: no choice) and the sortie's d6 is rolled at once: a roll
equal to the aim costs blue 3 hit points.  Then blue strikes (a d6).

The colluding side plays honestly but for the aim: for every face it could
call, the aimer writes his exchange and his team-mates' programs run their
next exchanges on it offline (nothing is sent), with their own keys and
dice chains, until a seat of another side must send; it calls the face the
sortie die then shows (blue, aiming, calls another one).  A die the side
could see that way, before the aimer signed, was foreseeable.

Findings (stop 17):

* The aimer's own private answer (aimer south) is safe: his own order
  freezes his stream, so the die waits for blue's next reveal.
* Across sides (aimer blue) is safe: south's stream is keyed by south's next
  reveal, which blue cannot know.
* Team-mate's choice, then a private answer at the start of the partner's
  exchange (aimer north): NOT safe.  North hands the exchange to south at
  south's private decision; south's stream is keyed by south's next reveal,
  north's reveal and blue's last one, all known to red when north calls the
  aim; the stream is not frozen before south's first own order, so the die
  is served there.  Red hits every time, and no program can tell: blue's
  program, a bystander and the audit all accept the file (it is an honest
  file; only the choice of aim was informed).  The fix (asked of CORE,
  /tmp/ask-TEAM.md) freezes such a stream: the die is deferred to the next
  seat of another side, like a die after the sender's own order.
* The last join's anchor (option ``muster``: the game opens with south's
  private answer and a die): the last joiner alone cannot grind it, but a
  team-mate's first reveal makes the stream count as fresh although the team
  knows it: NOT safe, same fix request (Match.stream_fresh).
"""
from __future__ import annotations

import os
from typing import Any, Callable

import pytest

import enginehelp as eh
from pbem import cycle
from pbem.game import BaseGame, BaseRules, Decision, Event, IllegalOrder, ScenarioError, SeatSpec
from pbem.game import check_commitment, commit
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate

SEATS = (SeatSpec("north", "red"), SeatSpec("south", "red"), SeatSpec("blue", "blue"))
SIDE = {"north": "red", "south": "red", "blue": "blue"}
SC: dict[str, Any] = {"scenario": {"id": "sortie/test", "game": "sortie", "title": "Sortie", "practice": True},
                      "sortie": {"hp": 40, "rounds": 3}}
SORTIE = "sortie d6"
MUSTER = "muster d6"
HIT = 3


# ------------------------------------------------------------------ the game

class SortieRules(BaseRules):
    """Steps of a round: ``card`` (south, secret), ``aim`` (the aimer),
    ``reveal`` (south's program: the card and the sortie die), ``strike``
    (blue, a d6)."""

    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            self.hp, self.rounds = int(scenario["sortie"]["hp"]), int(scenario["sortie"]["rounds"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("sortie scenario needs [sortie] hp and rounds") from None
        self.aimer = str(options.get("aimer", "north"))
        self.muster = bool(options.get("muster"))

    def initial_state(self) -> dict[str, Any]:
        return {"round": 1, "step": "muster" if self.muster else "card", "hp": {"red": self.hp, "blue": self.hp}, "aim": None,
                "commit": None, "hits": 0, "hidden": {"south": {"card": None, "salt": None}}}

    def pending(self, st: dict[str, Any]) -> Decision | None:
        step = st["step"]
        if step == "over":
            return None
        if step == "muster":
            return Decision("south", "muster", "south musters red (a die)", private=True)
        if step == "card":
            return Decision("south", "card", "south: a card, 1 to 3, in secret", ("card 1", "card 2", "card 3"))
        if step == "aim":
            return Decision(self.aimer, "aim", f"{self.aimer}: call the sortie's face",
                            tuple(f"aim {k}" for k in range(1, 7)))
        if step == "reveal":
            return Decision("south", "reveal", "south turns the card up", private=True)
        return Decision("blue", "strike", "blue: strike", ("strike",))

    def apply(self, st: dict[str, Any], seat: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.seat != seat or order.get("verb") != d.kind:
            raise IllegalOrder(f"{seat} may not {order.get('verb')} now")
        handler: Callable[[dict[str, Any], dict[str, Any], Any], list[Event]] = getattr(self, "_" + d.kind)
        return st, handler(st, order, rng)

    def _muster(self, st: dict[str, Any], order: dict[str, Any], rng: Any) -> list[Event]:
        roll = rng.roll(6, MUSTER)
        st["hp"]["red"] += roll
        st["step"] = "card"
        return [Event(f"south musters {roll}")]

    def _card(self, st: dict[str, Any], order: dict[str, Any], rng: Any) -> list[Event]:
        if not isinstance(order.get("commitment"), str):
            raise IllegalOrder("card needs a commitment")
        if st["hidden"]["south"] is not None:
            secret = order.get("secret") or {}
            if secret.get("card") not in (1, 2, 3) or not check_commitment(
                    {"card": secret.get("card")}, bytes.fromhex(secret.get("salt", "")), order["commitment"]):
                raise IllegalOrder("card: the secret does not match its commitment")
            st["hidden"]["south"] = {"card": secret["card"], "salt": secret["salt"]}
        st["commit"], st["step"] = order["commitment"], "aim"
        return [Event("south picks a card in secret")]

    def _aim(self, st: dict[str, Any], order: dict[str, Any], rng: Any) -> list[Event]:
        if order.get("face") not in range(1, 7):
            raise IllegalOrder("aim 1 to aim 6")
        st["aim"], st["step"] = order["face"], "reveal"
        return [Event(f"{self.aimer} calls {order['face']}")]

    def _reveal(self, st: dict[str, Any], order: dict[str, Any], rng: Any) -> list[Event]:
        card, salt = order.get("card"), order.get("salt")
        try:
            ok = isinstance(salt, str) and check_commitment({"card": card}, bytes.fromhex(salt), st["commit"])
        except ValueError:
            ok = False
        if not ok:
            raise IllegalOrder("the card shown does not match its commitment")
        roll = rng.roll(6, SORTIE)
        hit = roll == st["aim"]
        st["hp"]["blue"] -= HIT if hit else 0
        st["hits"] += int(hit)
        st["step"] = "strike"
        return [Event(f"south shows {card}; the sortie rolls {roll}: {'a hit' if hit else 'a miss'}")]

    def _strike(self, st: dict[str, Any], order: dict[str, Any], rng: Any) -> list[Event]:
        hit = rng.roll(6, "blue strike d6")
        st["hp"]["red"] -= hit
        st["round"] += 1
        st.update(step="over" if st["round"] > self.rounds else "card", aim=None, commit=None)
        if st["hidden"]["south"] is not None:
            st["hidden"]["south"] = {"card": None, "salt": None}
        return [Event(f"blue strikes for {hit}")]

    def parse(self, text: str, st: dict[str, Any], seat: str) -> dict[str, Any]:
        words = text.split()
        if len(words) == 2 and words[0] in ("card", "aim") and words[1].isdigit():
            return {"verb": words[0], ("card" if words[0] == "card" else "face"): int(words[1])}
        if words == ["strike"]:
            return {"verb": "strike"}
        raise IllegalOrder(f"cannot read {text!r}")

    def fill_secrets(self, st: dict[str, Any], seat: str, order: dict[str, Any], new_salt: Any) -> dict[str, Any]:
        if order.get("verb") != "card" or "secret" in order:
            return order
        salt = new_salt()
        return {"verb": "card", "commitment": commit({"card": order["card"]}, salt),
                "secret": {"card": order["card"], "salt": salt.hex()}}

    def format(self, order: dict[str, Any]) -> str:
        return {"card": "card (secret)", "aim": f"aim {order.get('face')}"}.get(order.get("verb", ""), str(order.get("verb")))

    def private_answer(self, st: dict[str, Any], d: Decision) -> dict[str, Any]:
        if d.kind == "muster":
            return {"verb": "muster"}
        mine = st["hidden"]["south"]
        return {"verb": "reveal", "card": mine["card"], "salt": mine["salt"]}

    def query(self, st: dict[str, Any], seat: str, text: str) -> str:
        return f"hp {st['hp']}"

    def result(self, st: dict[str, Any]) -> str | None:
        return f"red {st['hp']['red']}, blue {st['hp']['blue']}" if st["step"] == "over" else None


class SortieGame(BaseGame):
    id = "sortie"
    title = "Sortie (team dice test game)"
    sides = ("red", "blue")

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        return [] if "sortie" in data else ["sortie: the [sortie] table is missing"]

    def options(self) -> dict[str, tuple[Any, str]]:
        return {"aimer": ("north", "north | south | blue: who calls the sortie's face"),
                "muster": (False, "the game opens with south's muster: a private answer, then a die")}

    def policy_kinds(self) -> dict[str, str]:
        return {}

    def seats(self, options: dict[str, Any]) -> tuple[SeatSpec, ...]:
        return SEATS

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> SortieRules:
        return SortieRules(scenario, options)


GAME = SortieGame()


@pytest.fixture(autouse=True)
def _sortie_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_GAME_MODULES", os.environ.get("PBEM_GAME_MODULES", "") + ",sortie=test_team_streams")


# ------------------------------------------------------------------ playing

def _table(aimer: str, joins: tuple[str, ...] = ("north", "south", "blue"),
           muster: bool = False) -> tuple[GameFile, dict[str, Any]]:
    """A new game created by ``joins[0]``, the others joining in that order."""
    ids = {"north": generate("Nadia", "nadia@example.org"), "south": generate("Sergei", "sergei@example.org"),
           "blue": generate("Boris", "boris@example.org")}
    gf = cycle.new_game(game_id=f"sortie-{aimer}", game="sortie", scenario_name="sortie/test", scenario=SC,
                        options={"aimer": aimer, "muster": muster}, dice="sealed", creator=ids[joins[0]],
                        creator_side=joins[0], invited={s: ids[s].public for s in SIDE if s != joins[0]})
    for seat in joins[1:]:
        gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, SC, ids[seat]), ids[seat], seat)])
    return gf, ids


def _send(gf: GameFile, ids: dict[str, Any], aim: int = 1) -> GameFile:
    """The seat whose turn it is sends its exchange, honestly: card 2, the
    given aim, strike."""
    seat = cycle.replay(gf, SC).next_sender()
    assert seat is not None
    t = cycle.Turn(cycle.replay(gf, SC, ids[seat]), ids[seat])
    while not t.done:
        d = t.pending()
        t.push({"card": "card 2", "aim": f"aim {aim}"}.get(d.kind, d.options[0]))
    return GameFile(gf.exchanges + [t.finish()])


def _sortie_rolls(gf: GameFile, purpose: str = SORTIE) -> list[tuple[int, int]]:
    """(exchange n, face) of every sortie (or muster) die, as any program
    lists them."""
    m = cycle.replay(gf, SC)
    return [(rec.n, r["result"]) for rec in m.records for r in rec.rolls if r["purpose"] == purpose]


def _foresee(gf: GameFile, ids: dict[str, Any]) -> dict[int, int] | None:
    """What the aimer's side can know before the aimer signs: for each face,
    the aimer's exchange calling it, then every next exchange its own seats
    must send, written offline by their own programs; the sortie die any of
    them shows (face called -> face rolled).  None: the aimer's exchange
    calls no face."""
    aimer = cycle.replay(gf, SC).next_sender()
    assert aimer is not None
    seen: dict[int, int] = {}
    for face in range(1, 7):
        trial = _send(gf, ids, face)
        if not any(e["order"].get("verb") == "aim" for e in trial.exchanges[-1]["orders"]):
            return None
        while (nxt := cycle.replay(trial, SC).next_sender()) is not None and SIDE[nxt] == SIDE[aimer]:
            trial = _send(trial, ids)
        shown = _sortie_rolls(trial)[len(_sortie_rolls(gf)):]
        if shown:
            seen[face] = shown[0][1]
    return seen


def _play(aimer: str) -> tuple[GameFile, dict[str, Any], list[dict[int, int]]]:
    """A whole game in which the aimer's side calls the face it foresees
    (blue: another face); returns the file, the keys and what the side
    foresaw at each aim."""
    gf, ids = _table(aimer)
    foreseen = []
    while not cycle.replay(gf, SC).over():
        seen = _foresee(gf, ids) if cycle.replay(gf, SC).next_sender() == aimer else None
        if seen is None:
            gf = _send(gf, ids)
            continue
        foreseen.append(seen)
        wanted = [f for f in range(1, 7) if (seen.get(f) == f) == (SIDE[aimer] == "red")]
        gf = _send(gf, ids, wanted[0] if wanted and seen else 1)
    return gf, ids, foreseen


def _foreseeable(gf: GameFile, aimer: str) -> list[int]:
    """The sortie dice (by round) served by a stream whose every reveal the
    aimer's side knew when the aimer signed his call: its own seats' (they
    know their chains) and those published by then."""
    m = cycle.replay(gf, SC)
    published = {ex["reveal"]: n for n, ex in enumerate(gf.exchanges, 1) if ex["kind"] == "play"}
    aims = [n for n, ex in enumerate(gf.exchanges, 1) if any(e["order"].get("verb") == "aim" for e in ex.get("orders", []))]
    rolled = [rec for rec in m.records if any(r["purpose"] == SORTIE for r in rec.rolls)]
    assert len(aims) == len(rolled) == SC["sortie"]["rounds"]
    out = []
    for k, (aim_n, rec) in enumerate(zip(aims, rolled), 1):
        unknown = [s for s, rv in rec.keyed_by.items()
                   if SIDE[s] != SIDE[aimer] and published.get(rv, 0) > aim_n]
        if not unknown:
            out.append(k)
    return out


def _every_program_accepts(gf: GameFile, ids: dict[str, Any]) -> None:
    hashes = {seat: cycle.replay(gf, SC, ident).state_hash() for seat, ident in ids.items()}
    hashes["bystander"] = cycle.replay(gf, SC).state_hash()
    assert len(set(hashes.values())) == 1, hashes
    audit = cycle.replay(eh.disclose_all(gf, SC, ids), SC, None, audit=True)
    assert audit.state_hash() == hashes["bystander"]


# ------------------------------------------------------------------ the tests

@pytest.mark.parametrize("aimer", ["south", "blue"])
def test_a_die_after_a_choice_of_the_seat_or_of_the_other_side_is_keyed_by_a_reveal_the_chooser_lacks(
        aimer: str) -> None:
    """South calling the face himself: his own order freezes his stream and
    the die waits for blue's next exchange.  Blue calling it: the die is
    served by south's stream, keyed by south's next reveal.  Either way the
    aimer's side sees no die before it signs, and every die was keyed by a
    reveal of the other side published after the call."""
    gf, ids, foreseen = _play(aimer)
    assert foreseen == [{}] * SC["sortie"]["rounds"]
    assert _foreseeable(gf, aimer) == []
    served_by = {cycle.replay(gf, SC).exchanges[n - 1]["side"] for n, _ in _sortie_rolls(gf)}
    assert served_by == {"blue" if aimer == "south" else "south"}
    _every_program_accepts(gf, ids)


def test_a_team_mate_s_choice_before_the_partner_s_private_answer_leaves_no_trace_any_program_sees() -> None:
    """The collusion cannot be caught, live or at the audit: it uses only
    what red's programs hold and sends an honest file.  So the engine must
    make it useless (the next test), not detect it."""
    gf, ids, _ = _play("north")
    _every_program_accepts(gf, ids)


def test_a_team_mate_cannot_foresee_the_die_of_the_partner_s_private_answer() -> None:
    """North calls the face, south's program turns the card up at the start
    of south's exchange and the die is rolled.  Red must see no die before
    north signs, and each die must be keyed by a reveal of blue made after
    the call."""
    gf, ids, foreseen = _play("north")
    hits = cycle.replay(gf, SC).state["hits"]
    assert foreseen == [{}] * SC["sortie"]["rounds"], f"red foresaw {foreseen} and hit {hits} times of 3"
    assert _foreseeable(gf, "north") == []


# ------------------------------------------------------------------ the last join's anchor

def _ground_joins(last: str, tries: int = 4) -> list[int]:
    """The seat that joins last fixes its dice anchor knowing every other
    one, and may make as many joins as it likes (each a new chain) before it
    sends one.  For each, its side writes its next exchanges offline; the
    muster dice they show (south's private answer opens the game)."""
    gf, ids = _table("north", joins=tuple(s for s in ("blue", "south", "north") if s != last), muster=True)
    seen = []
    for _ in range(tries):
        trial = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, SC, ids[last]), ids[last], last)])
        while (nxt := cycle.replay(trial, SC).next_sender()) is not None and SIDE[nxt] == SIDE[last]:
            trial = _send(trial, ids)
        seen += [face for _, face in _sortie_rolls(trial, MUSTER)]
    return seen


@pytest.mark.parametrize("last", ["south", "blue"])
def test_the_last_joiner_cannot_grind_his_anchor_for_his_own_or_the_other_side_s_first_die(last: str) -> None:
    """South joining last: his first exchange's stream is keyed by anchors
    and his own reveal only, so it serves nothing (Match.stream_fresh) and
    the muster die waits for blue.  Blue joining last: south's stream is
    keyed by south's first reveal, which blue cannot know."""
    assert _ground_joins(last) == []


def test_the_last_joiner_s_team_cannot_grind_his_anchor_for_the_team_s_first_die() -> None:
    """North joins last, after blue and south: south's first exchange opens
    with the muster, keyed by north's anchor, blue's anchor and south's
    first reveal, all known to red when north joins."""
    seen = _ground_joins("north")
    assert seen == [], f"red saw the muster die of each of {len(seen)} joins before north sent one: {seen}"
