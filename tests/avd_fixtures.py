"""Helpers of the A Victory Denied tests: small boards for the mechanics
tests, and (below) the practice scenario, fake random streams, positions set
up by hand and whole games played through the exchange engine.

The small boards:

Everything here is TEST DATA, not the printed components: the grid is a
9 x 9 flat-topped map, the terrain chart only carries the few values the
rulebook states in its text (woods one column left, city two, motorized
units pay 2 MP for woods and swamp), and the CRT holds made-up cells except
the one cell the rulebook pins down: 4-1 with a roll of 3 is DR (attack
example of 9.4.3).
"""
from __future__ import annotations

import dataclasses
import random
import tomllib
from pathlib import Path
from typing import Any, Iterable, Sequence

from enginehelp import play_until
from pbem import cycle
from pbem.game import Decision
from pbem.board.hexgrid import HexGrid, side_key
from pbem.games.avd import model, movement
from pbem.games.avd import bot
from pbem.games.avd.bot import POLICIES
from pbem.games.avd import scenario as avd_scenario
from pbem.games.avd.model import SOVIET, UnitSpec
from pbem.games.avd.rules import AvdRules
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import generate
from pbem.scenario import load_toml

COLUMNS = ("1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")

# TEST DATA: a made-up CRT.  Each row is the same for every column except
# where noted, so that a test reading a column can tell columns apart only
# through the pinned cell (4-1, roll 3) and row 9 (a different cell per
# column, for the 9.4.3 fallback test).
_TEST_ROWS: dict[int, tuple[str, ...]] = {
    1: ("A1",) * 11,
    2: ("-",) * 11,
    3: ("A1", "A1", "-", "1", "DR", "1DR", "1DR", "2DR", "2DR", "2DR2", "3DR2"),
    4: ("-", "1", "1", "DR", "1DR", "2DR", "2DR2", "2DR2", "2DR2", "3DR2", "3DR2"),
    5: ("1",) * 11,
    6: ("DR2",) * 11,
    7: ("1DR",) * 11,
    8: ("2DR",) * 11,
    9: ("A1", "-", "1", "DR", "1DR", "2DR", "2DR2", "3DR", "3DR2", "4DR", "4DR2"),
}

# TEST DATA terrain chart (half-MP units).  Woods/city shifts and the motorized
# woods/swamp cost are rulebook text (8.1.2, 9.3.6 example, combat ratio
# example); the other shifts are placeholders.
TERRAIN = {
    "clear": model.Terrain("clear", 2, 2, 0),
    "woods": model.Terrain("woods", 2, 4, 1),
    "swamp": model.Terrain("swamp", 2, 4, 1),
    "city": model.Terrain("city", 2, 2, 2),
    "town": model.Terrain("town", 2, 2, 0),
    "hill": model.Terrain("hill", 2, 2, 1),
}

GRID = HexGrid(1, 9, 1, 9, "odd-q")


def h(col: int, row: int) -> str:
    return GRID.hex_id(col, row)


def unit(uid: str, side: str, *, kind: str = "combat", motorized: bool = False,
         movement: int = 6, attack: int = 3, defense: int = 3, steps: int = 2,
         reduced_attack: int | None = None, reduced_defense: int | None = None,
         command_range: int = 0, formation: str = "", corps: str = "",
         pvo: bool = False, code: str = "") -> UnitSpec:
    """A counter for a test; reduced values default to one less than full."""
    if kind == "hq":
        return UnitSpec(uid, side, uid, "hq", motorized, movement, 0, 0, 1, 0, 0,
                        command_range, formation, corps, False, code)
    ra = attack - 1 if reduced_attack is None else reduced_attack
    rd = defense - 1 if reduced_defense is None else reduced_defense
    if steps == 1:
        ra = rd = 0
    if not formation:
        formation = "tan" if side == SOVIET else "9A"
    return UnitSpec(uid, side, uid, "combat", motorized, movement, attack, defense, steps,
                    ra, rd, command_range, formation, corps, pvo, code)


def scenario(units: Iterable[UnitSpec], *, terrain: dict[str, str] | None = None,
             sides: dict[tuple[str, str], Iterable[str]] | None = None,
             victory: dict[str, str] | None = None,
             supply_german: Iterable[str] = (), supply_soviet: Iterable[str] = (),
             supply_soviet_t4: Iterable[str] = (), minsk: Iterable[str] = (),
             strategic_cost: int = 1, grid: HexGrid = GRID) -> model.Scenario:
    """A Scenario on the test grid.  ``sides`` maps a pair of adjacent hexes
    to hexside features ("minor_river", "major_river", "road")."""
    hexsides = {side_key(a, b): frozenset(f) for (a, b), f in (sides or {}).items()}
    amap = model.AvdMap(
        first_col=grid.first_col, last_col=grid.last_col, first_row=grid.first_row,
        last_row=grid.last_row, offset=grid.offset, terrain=dict(terrain or {}),
        hexsides=hexsides, victory=dict(victory or {}), names={}, moscow=frozenset(),
        minsk_pocket=frozenset(minsk), supply_german=frozenset(supply_german),
        supply_soviet=frozenset(supply_soviet),
        supply_soviet_until_turn4=frozenset(supply_soviet_t4), entry={},
        timoshenko_entry=frozenset())
    return model.Scenario(
        id="test", title="mechanics test board (test data)", practice=True, notice="test data",
        map=amap, terrain=dict(TERRAIN), crt=model.Crt(COLUMNS, dict(_TEST_ROWS)),
        units={u.id: u for u in units}, chits={}, turns={}, vp_chits={}, minsk_escape={},
        hitler_directive={}, hitler_die=6, strategic_cost=strategic_cost)


def state(scn: model.Scenario, at: dict[str, str], *, turn: int = 2,
          vp: dict[str, Any] | None = None, **flags: dict[str, Any]) -> dict[str, Any]:
    """A game state with the units of ``at`` on the map (uid -> hex) and
    every other unit off map.  ``flags`` holds per-unit overrides, e.g.
    ``isolated={"S1": True}``, ``steps={"G1": 1}``."""
    units = {}
    for uid, spec in scn.units.items():
        u = {"where": "map" if uid in at else "offmap", "hex": at.get(uid), "steps": spec.steps,
             "oos": False, "isolated": False, "active": False, "moved": False, "attacked": False}
        for key, per_unit in flags.items():
            if uid in per_unit:
                u[key] = per_unit[uid]
        units[uid] = u
    return {"turn": turn, "units": units, "attacked_hexes": [], "vp": dict(vp or {})}


# ------------------------------------------------ the practice scenario

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = ROOT / "scenarios" / "avd" / "practice.toml"


def practice_scenario():
    with open(PRACTICE, "rb") as fh:
        return avd_scenario.load(tomllib.load(fh))


def practice_rules(**options: Any) -> AvdRules:
    return AvdRules(practice_scenario(), options)


class AsChosen:
    """A side's secret stream as these tests fix it: the face-down chits
    stay under their handles in the order they were named (so a scripted
    draw from the cup meets the chits in that order)."""

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        return list(items)

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        return 0

    def roll(self, sides: int, purpose: str) -> int:
        raise AssertionError(f"unexpected secret roll: {purpose}")

    def secret(self, seat: str) -> AsChosen:
        return self


class SeededRng:
    """A deterministic stand-in for the shared stream (tests only)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.log: list[tuple[str, int]] = []

    def roll(self, sides: int, purpose: str) -> int:
        v = self.r.randint(1, sides)
        self.log.append((purpose, v))
        return v

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        v = self.r.randrange(len(items))
        self.log.append((purpose, v))
        return v

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        out = list(items)
        self.r.shuffle(out)
        return out

    def secret(self, seat: str) -> AsChosen:
        return AsChosen()


class ScriptRng:
    """Rolls and draws given in advance; a draw may name the item wanted."""

    def __init__(self, rolls: Sequence[int] = (), draws: Sequence[Any] = ()) -> None:
        self.rolls = list(rolls)
        self.draws = list(draws)
        self.log: list[str] = []

    def roll(self, sides: int, purpose: str) -> int:
        self.log.append(purpose)
        if not self.rolls:
            raise AssertionError(f"unexpected roll: {purpose}")
        return self.rolls.pop(0)

    def draw(self, items: Sequence[Any], purpose: str) -> int:
        self.log.append(purpose)
        if not self.draws:
            return 0
        want = self.draws.pop(0)
        if isinstance(want, int) and not isinstance(want, bool) and want not in items:
            return want
        return list(items).index(want)

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        return list(items)

    def secret(self, seat: str) -> AsChosen:
        return AsChosen()


def chits_order(rules: AvdRules, state, side: str, text: str) -> dict[str, Any]:
    """A chit selection as the side's own program makes it (the chits in
    its secret part, how many are sealed in its public part)."""
    return rules.fill_secrets(state, side, rules.parse(text, state, side), lambda: b"")


def with_openings(rules: AvdRules, state, seat: str, order: dict[str, Any]) -> dict[str, Any]:
    """An order that shows hidden items (``open``) as the core hands it to
    every program: with the opening of each handle from ``seat``'s hidden
    items (the root and its proof are the core's business, tested there)."""
    if not order.get("open"):
        return order
    items = rules.hidden_items(state, seat)
    return dict(order, openings=[{"handle": h, "value": items[h]} for h in order["open"]])


def select_both(rules: AvdRules, state, german: str, soviet: str, rng=None):
    """Both chit selections; returns the state after them."""
    rng = rng or ScriptRng()
    state, _ = rules.apply(state, "german", chits_order(rules, state, "german", german), rng)
    state, _ = rules.apply(state, "soviet", chits_order(rules, state, "soviet", soviet), rng)
    return state


def clear_map(state, keep: Sequence[str] = ()) -> None:
    """Take every unit but ``keep`` off the map (a clean board to test on)."""
    for uid, u in state["units"].items():
        if uid not in keep and u["where"] == "map":
            u["where"], u["hex"] = "removed", None


def put(state, uid: str, hex_: str, active: bool = False) -> None:
    u = state["units"][uid]
    u["where"], u["hex"], u["active"], u["moved"], u["attacked"] = "map", hex_, active, False, False


def frame(kind: str, **kw: Any) -> dict[str, Any]:
    return {"k": kind, **kw}


def answer_all(rules: AvdRules, state, rng, policies: dict[str, Any] | None = None, limit: int = 500,
               stop=None):
    """Answer decisions with standing orders, private answers or the first
    option until ``stop(decision)`` is true or the game ends."""
    for _ in range(limit):
        d = rules.pending(state)
        if d is None or (stop and stop(d)):
            return state, d
        if d.private:
            o = with_openings(rules, state, d.side, rules.private_answer(state, d))
        else:
            o = rules.standing_answer(state, d, policies or {})
            if o is None:
                first = next((x for x in d.options if "UNIT" not in x and "HQ HEX" not in x), "pass")
                o = rules.parse(first, state, d.side)
                o = rules.fill_secrets(state, d.side, o, lambda: b"")
        state, _ = rules.apply(state, d.side, o, rng)
    raise AssertionError("too many decisions")


def clear_pair(rules, st):
    """A clear attacker hex and a clear target hex with no river between,
    whose other neighbours are clear and on the map."""
    b = rules.board(st)
    for t in b.grid.hexes():
        if b.terrain(t).shift or len(b.grid.neighbors(t)) < 6 or t in rules.scn.map.victory:
            continue
        if b.in_minsk_pocket(t) or t in rules.scn.map.moscow:
            continue
        for a in b.grid.neighbors(t):
            if not b.terrain(a).shift and not b.hexside(a, t) and len(b.grid.neighbors(a)) == 6:
                return a, t
    raise AssertionError("no clear pair")


def battle_setup(rules, attacker, defender, side, turn=2):
    st = rules.initial_state()
    clear_map(st)
    a, t = clear_pair(rules, st)
    put(st, attacker, a, active=True)
    put(st, defender, t)
    st["turn"] = turn
    st["active"] = side
    st["stack"] = [frame("endturn"), frame("combat", special=False)]
    return st, a, t



# ---------------------------------------------------- reinforcements (11)
def rp_rules(rp: int) -> AvdRules:
    scn = practice_scenario()
    turns = dict(scn.turns)
    turns[2] = dataclasses.replace(turns[2], soviet_rp=rp)
    return AvdRules(dataclasses.replace(scn, turns=turns), {})



# ------------------------------------------------ a random scripted player

def bot_move(rules, st, d: Decision, rng: SeededRng):
    """Move one active unit toward the enemy, or end the segment."""
    b = rules.board(st)
    top = st["stack"][-1]
    if top["mode"] != "normal":
        enter = [o for o in d.options if o.split()[0] in ("move", "strat") and "UNIT" not in o]
        return rules.parse(enter[0], st, d.side) if enter else {"verb": "end-move"}
    movers = [u for u in b.units_of(d.side) if st["units"][u]["active"] and not st["units"][u]["moved"]
              and not b.spec(u).pvo]
    if not movers or rng.r.random() < 0.3:
        return {"verb": "end-move"}
    uid = movers[rng.r.randrange(len(movers))]
    reach = movement.reach(b, uid)
    ends = sorted(h for h in reach.endable if h != b.hex_of(uid))
    if not ends:
        st["units"][uid]["moved"] = True    # the bot gives up on this unit (test shortcut)
        return {"verb": "end-move"} if len(movers) == 1 else bot_move(rules, st, d, rng)
    here = b.hex_of(uid)
    enemy = sorted((b.hex_of(u) for u in b.units_of("soviet" if d.side == "german" else "german")),
                   key=lambda h: (b.distance(here, h), h))[:4]
    goal = min(ends, key=lambda h: (min((b.distance(h, e) for e in enemy), default=0), h))
    return {"verb": "move", "unit": uid, "path": reach.path_to(goal)}


def bot_order(rules, st, d: Decision, rng: SeededRng):
    if d.private:
        return rules.private_answer(st, d)
    o = rules.standing_answer(st, d, POLICIES[d.side])
    if o is not None:
        return o
    if d.kind == "move":
        return bot_move(rules, st, d, rng)
    if d.kind == "chits":
        return rules.fill_secrets(st, d.side, rules.parse(d.options[0], st, d.side), lambda: b"")
    wanted = [x for x in d.options if x.split()[0] in ("attack", "buy", "place", "release", "oos", "art",
                                                      "rocket", "relocate", "seed", "activate", "elite",
                                                      "withdraw", "stars", "directive", "loss", "retreat")]
    plain = [x for x in d.options if "UNIT" not in x and " HEX" not in x]
    choice = wanted[0] if wanted and rng.r.random() < 0.8 else (plain[0] if plain else "pass")
    return rules.parse(choice, st, d.side)



# ------------------------------------------------ games through the engine


SCENARIO = load_toml(PRACTICE)


def table(dice: str = "immediate", game_id: str = "avd-hidden") -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A new practice game, joined: the German's Turn 1 selection is due."""
    sc = SCENARIO
    ids = {"german": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=game_id, game="avd", scenario_name="avd/practice", scenario=sc, options={},
                        dice=dice, creator=ids["german"], creator_side="german",
                        invited={"soviet": ids["soviet"].public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, ids["soviet"]), ids["soviet"], "soviet")])
    return gf, sc, ids


def turn_of(m: Any, me: Any, orders: tuple[str, ...] = ()) -> dict[str, Any]:
    """``m``'s sender's exchange: ``orders``, then the scripted player's."""
    t = cycle.Turn(m, me)
    for o in orders:
        t.push(o)
    while not t.done:
        t.push(m.rules.demo_order(t.es["game"], t.pending()))
    return t.finish()


def write(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any], *orders: str) -> GameFile:
    seat = cycle.replay(gf, sc).next_sender()
    return GameFile(gf.exchanges + [turn_of(cycle.replay(gf, sc, ids[seat]), ids[seat], orders)])


def reveals(ex: dict[str, Any]) -> list[dict[str, Any]]:
    return [e["order"] for e in ex.get("orders", []) if e["order"].get("verb") == "reveal"]



def play_game(dice: str, limit: int = 3000, stop_after: int | None = None):
    """A practice game (or its first ``stop_after`` exchanges) between the
    scripted players through the exchange engine, the German seat's creator
    Anna, the Soviet Pavel (enginehelp.play_scripted)."""
    from enginehelp import play_scripted

    ids = {"german": generate("Anna", "anna@example.org"), "soviet": generate("Pavel", "pavel@example.org")}
    return play_scripted("avd", "avd/practice", load_toml(PRACTICE), ids, "german", dice, limit, stop_after,
                         policies_once=True)


# ---------------------------------------------------------------- plans
def at_combat(dice: str = "sealed", policies: bool = True, need: int = 2, tries: int = 6):
    """A fresh practice game played by the scripted players (standing orders
    on unless ``policies`` is False) up to a German Combat Segment offering
    at least ``need`` attacks on different hexes with different units; the
    German's open Turn there."""
    def found(t: Any, d: Any, ready: bool) -> Any:
        if t.side == "german" and d.kind == "combat" and d.plannable:
            plan = bot._attack_plan(t.m.rules, t.es["game"], d)
            if plan and len(plan["orders"]) > need:
                return plan
        return None

    for k in range(tries):
        gf, sc, ids = table(dice, game_id=f"avd-plan-{dice}-{k}")
        matches = {s: cycle.replay(gf, sc, ids[s]) for s in ids}
        wanted = {s: m.rules.demo_policies(s) for s, m in matches.items()} if policies else None
        got = play_until(gf, matches, ids, found, limit=40, policies=wanted, policies_once=True)
        if got:
            gf, t, plan = got
            return gf, sc, ids, matches, t, plan
    raise AssertionError("no German Combat Segment with two attacks to plan")


def send(gf, matches, ids, t):
    ex = t.finish()
    return GameFile(gf.exchanges + [ex]), ex


def reply(gf, sc, ids, matches, cheat=None):
    """The seat whose turn it is writes its exchange with the scripted
    player (``cheat(run)`` first changes its own program)."""
    side = cycle.replay(gf, sc).next_sender()
    m = cycle.replay(gf, sc, ids[side])
    t = cycle.Turn(m, ids[side])
    if cheat:
        cheat(t)
    while not t.done:
        t.push(m.rules.demo_order(t.es["game"], t.pending()))
    return t.finish(), t
