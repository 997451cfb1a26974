"""Helpers of the Moscow '41 tests: the practice and campaign scenarios,
hand-made positions on the practice map, orders played through the rules
with the core's part done by hand, and games played through the exchange
engine."""
from __future__ import annotations

import copy
import hashlib
import tomllib
from pathlib import Path

from fakedice import SeededDice, d6
from pbem import cycle
from pbem.games.m41 import GAME
from pbem.protocol import gamefile
from pbem.protocol.identity import generate

ROOT = Path(__file__).resolve().parent.parent


PRACTICE = tomllib.loads((ROOT / "scenarios/m41/practice.toml").read_text())


CAMPAIGN = tomllib.loads((ROOT / "scenarios/m41/campaign.toml").read_text())


FakeRng = SeededDice      # seeded stand-in for the shared stream; scripted rolls are d6(...) (tests/fakedice.py)


def shown(state, side, order):
    """What the core adds to an order that shows blocks, in the owner's
    program: the openings (here without root and path; tests of the rules
    only)."""
    if order.get("open") and "openings" not in order and state["hidden"].get(side) is not None:
        items = RULES.hidden_items(state, side)
        order = dict(order, openings=[{"handle": h, "value": items[h]} for h in order["open"]])
    return order


def salts(tag: str):
    n = [0]

    def source() -> bytes:
        n[0] += 1
        return hashlib.sha256(f"{tag}/{n[0]}".encode()).digest()[:16]
    return source


RULES = GAME.rules(PRACTICE, {})


SC = RULES.sc


LOSSES = {"losses": "first"}      # standing loss order used by play() for tied blocks


def play(state, side, order, rng, salt=None, place=None):
    """Apply one of ``side``'s orders as its own program would, then answer
    any private decisions that follow from the hidden parts, and place drawn
    reinforcements (5.0) where ``place`` (a function of the state and the
    decision) says, by default where each first may go."""
    salt = salt or salts(f"{side}-{state['impulse']}-{len(str(order))}")
    order = shown(state, side, RULES.fill_secrets(state, side, order, salt))
    state, events = RULES.apply(copy.deepcopy(state), side, order, rng)
    while True:
        d = RULES.pending(state)
        if d is not None and d.kind == "losses" and LOSSES is not None:
            state, more = RULES.apply(copy.deepcopy(state), d.side, RULES.standing_answer(state, d, LOSSES), rng)
            events += more
            continue
        if d is not None and d.kind == "reinforce" and state["hidden"][d.side] is not None:
            text = place(state, d) if place else d.options[0]
            state, more = RULES.apply(copy.deepcopy(state), d.side, RULES.parse(text, state, d.side), rng)
            events += more
            continue
        if d is None or not d.private or state["hidden"][d.side] is None:
            return state, events
        ans = shown(state, d.side, RULES.fill_secrets(state, d.side, RULES.private_answer(state, d), salt))
        state, more = RULES.apply(copy.deepcopy(state), d.side, ans, rng)
        events += more


def started(seed: int = 1):
    state = RULES.initial_state()
    rng = FakeRng(seed)
    state, _ = play(state, "soviet", {"verb": "setup"}, rng, salts("soviet-setup"))
    state, _ = play(state, "german", {"verb": "setup"}, rng, salts("german-setup"))
    return state


def empty_board(side="german", weather="good"):
    """The practice position with every block lifted off the map."""
    state = started()
    state["tokens"] = {}
    state["dl"] = {}
    for s in ("german", "soviet"):
        state["hidden"][s]["blocks"] = {}
    state["weather"] = weather
    state["active"] = side
    return state


def put(state, side, block, area, strength=None, revealed=False):
    spec = SC.spec(block)
    strength = spec.max if strength is None else strength
    state["next_token"][side] += 1
    tok = f"{'G' if side == 'german' else 'S'}{state['next_token'][side]:02d}"
    state["tokens"][tok] = {"side": side, "area": area, "colour": "black" if side == "german" else "red",
                            "revealed": revealed, "cube": False, "moved": False, "activated": False, "river": False}
    if revealed:
        state["tokens"][tok].update(block=block, strength=strength)
    state["hidden"][side]["blocks"][tok] = {"block": block, "strength": strength}
    return tok


def german_everywhere(state, *soviet_areas):
    for a in state["control"]:
        state["control"][a] = "soviet" if a in soviet_areas else "german"


def begin(state, side):
    state["active"] = side
    state["phase"] = "impulse"
    RULES._start_impulse(state, FakeRng(0), [])
    return state



# ------------------------------------------------ positions met in several tests

def cleared_rudnya(weather="good"):
    """Guderian in 9 sends a red tank into Rudnya (8, Green); the lone
    one-dot defender falls to the tank attack (the attacker fires first)."""
    state = empty_board(weather=weather)
    german_everywhere(state, "8", "13", "2")
    put(state, "soviet", "S-16A", "8", strength=1)
    target = put(state, "soviet", "S-19A", "13", strength=2)
    gud = put(state, "german", "G-2Pg-HQ", "9")
    tank = put(state, "german", "G-24PzK", "9")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": tank, "path": ["8"]}]}
    state, _ = play(state, "german", order, FakeRng(0, d6(6, 1, 1, 1)))
    return state, gud, tank, target



def view_text(state, side, width=120):
    from rich.console import Console

    from pbem.render.view import render_rich
    console = Console(record=True, width=width)
    console.print(render_rich(RULES.view(state, side)))
    return console.export_text()



def hidden_blocks(state, side) -> dict[str, list[str]]:
    """token -> block id and name, for ``side``'s blocks the public state
    does not show."""
    return {tok: [state["hidden"][side]["blocks"][tok]["block"],
                  SC.spec(state["hidden"][side]["blocks"][tok]["block"]).name]
            for tok, v in state["tokens"].items() if v["side"] == side and not v["revealed"]}


def seen_blocks(state, seat) -> set[str]:
    """Block names the seat's own program remembers seeing (dated notes)."""
    notes = ((state["hidden"].get(seat) or {}).get("seen") or {}) if seat else {}
    return {w for n in notes.values() for w in (n["block"], SC.spec(n["block"]).name)}



# ------------------------------------------------ optional rules

def options_rules(*names):
    return GAME.rules(PRACTICE, {n: True for n in names})


def options_board(rules, side="german", weather="good"):
    state = empty_board(side=side, weather=weather)
    state["options"] = dict(rules.options)
    return state


def options_begin(rules, state, side):
    state["active"] = side
    state["phase"] = "impulse"
    rules._start_impulse(state, FakeRng(0), [])
    return state


def options_play(rules, state, side, order, rng, place=None):
    """play() with a given rule set: fill the side's secrets, apply, answer
    private decisions and ties from the hidden parts, place drawn blocks."""
    salt = salts(f"opt-{side}-{state['impulse']}-{len(str(order))}")
    order = shown(state, side, rules.fill_secrets(state, side, order, salt))
    state, events = rules.apply(copy.deepcopy(state), side, order, rng)
    while True:
        d = rules.pending(state)
        if d is not None and d.kind == "losses":
            state, more = rules.apply(copy.deepcopy(state), d.side, rules.standing_answer(state, d, LOSSES), rng)
            events += more
            continue
        if d is not None and d.kind == "reinforce":
            text = place(state, d) if place else d.options[0]
            state, more = rules.apply(copy.deepcopy(state), d.side, rules.parse(text, state, d.side), rng)
            events += more
            continue
        if d is None or not d.private:
            return state, events
        ans = shown(state, d.side, rules.fill_secrets(state, d.side, rules.private_answer(state, d), salt))
        state, more = rules.apply(copy.deepcopy(state), d.side, ans, rng)
        events += more



# ------------------------------------------------ games through the engine

def start(dice: str = "immediate", scenario=PRACTICE, options=None):
    ger, sov = generate("Anna", "anna@example.org"), generate("Pavel", "pavel@example.org")
    gf = cycle.new_game(game_id="m41-test", game="m41", scenario_name=scenario["scenario"]["id"],
                           scenario=scenario, options=options or {}, dice=dice, creator=ger,
                           creator_side="german", invited={"soviet": sov.public})
    m = cycle.replay(gf, scenario, sov)
    gf = gamefile.GameFile(gf.exchanges + [cycle.join_exchange(m, sov, "soviet")])
    return gf, {"german": ger, "soviet": sov}


def one_exchange(gf, scenario, ids, before=None, choose=None):
    """The side whose turn it is writes one exchange with the scripted bot."""
    side = cycle.replay(gf, scenario).next_sender()
    m = cycle.replay(gf, scenario, ids[side])
    t = cycle.Turn(m, ids[side])
    if before:
        before(t, side)
    while not t.done:
        d = t.pending()
        t.push((choose or m.rules.demo_order)(t.es["game"], d))
    return gamefile.GameFile(gf.exchanges + [t.finish()]), side


def play_campaign(dice: str, limit: int = 400, stop_after: int | None = None):
    gf, ids = start(dice=dice)
    for n in range(limit):
        probe = cycle.replay(gf, PRACTICE)
        if probe.over() or (stop_after is not None and n >= stop_after):
            return gf, ids
        gf, _ = one_exchange(gf, PRACTICE, ids)
    raise AssertionError("the campaign did not end")

