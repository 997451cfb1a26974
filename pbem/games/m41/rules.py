"""Moscow '41: the sequence of play, bound to a scenario (pbem.game.Rules).

The state (plain JSON-like, no floats)::

    scenario, turn, phase ("setup" | "logistics" | "impulse" | "battle" |
    "attrition" | "over"), weather, forecast, wx_impulses, initiative,
    active, passes, impulse, control {area: side}, dl {area: side},
    dl_pool {side: n}, dl_cube [areas], leaders {side: strength},
    stalin_alive, discs {kiev, shlisselburg, leningrad}, pool_count,
    eliminated {side: [blocks]}, surrendered, german_lost, next_token,
    lives {block: n}, tokens {token: {side, area, colour, revealed, cube,
    moved, activated, river [, block, strength]}}, setup_group {token: key},
    setup_done [sides], reinforcing {side, tokens, after, fight} | None,
    logistics_queue [sides], contested_at_start, combat {queue, newly,
    artillery}, result, options,
    hidden {side: {"blocks": {token: {block, strength [, life]}}, "pool": [...]} | None}

Fog of war (1.5, rule notes 7.1) through the core's hidden-information
service (:mod:`pbem.cycle.hidden`): a token is an opaque handle; its block
and strength are the side's hidden items (:meth:`M41Rules.hidden_items`),
which the core commits as one root after every exchange the side sends.  A
block is shown by an order's ``open`` list (showdown, HQ activation,
surrender, face-up set-up); every program reads the shown values from the
core-checked ``order["openings"]``.  Face-down draws (set-up icons, which
block stands behind which handle, reinforcements) come from the side's
secret stream ``rng.secret(side)``, called in every program at the point of
the draw; a program that may not know it (None) applies the public effect
only (a count, new handles).  Secret choices (rebuilds, which block pays for
a DL, set-up picks) travel in ``order["secret"]``, sealed to the owner.
"""
from __future__ import annotations

from pbem.game import BaseGame, BaseRules

from typing import Any, Callable

from pbem.game import Decision, Event, IllegalOrder, Rng, ScenarioError, View

from . import air, position
from . import mechanics as mx
from .mechanics import contested, has_units, known, tokens_in
from .model import GERMAN, PREFIX, SIDES, SOVIET, WOOD, Scenario, hq_up, load, other, step_down

State = dict[str, Any]
Order = dict[str, Any]

OPTIONS: dict[str, tuple[Any, str]] = {
    "or14_1_ignore_army_colour": (False, "OR 14.1: any Tactical HQ commands any friendly combat block in range"),
    "or14_2_zhukov_hoepner": (False, "OR 14.2: Hoepner may leave the Road for the map; Zhukov may defend Leningrad"),
    "or14_3_moscow_source": (False, "OR 14.3: Moscow is a Soviet supply source while Soviet and uncontested"),
    "or14_4_rail": (False, "OR 14.4: in a Pass or Strategic Impulse blocks may rail-move through friendly areas"),
    "or14_5_blizzard": (False, "OR 14.5: Blizzard from the 2nd German impulse of December (German 1/2 defending, "
                               "1/4 attacking)"),
    "or14_6_cavalry": (False, "OR 14.6: cavalry pays less per area in Rain"),
    "or14_7_infantry_divisions": (False, "OR 14.7: German infantry divisions have 4 MP; Azul ignores Snow"),
    "or14_8_crusader": (False, "OR 14.8: both LW HQs and all bombers leave for good in November's Final Phase"),
    "impulse_cap": (200, "safety cap on impulses per turn for automated play (the rules set none, 2.2)"),
    "sure_draws": (False, "engine: a side's last pool block comes in with no secret draw, so no wait for dice "
                          "(on in new games; files written before it replay without)"),
}
#: engine options, kept out of the state (files written before them replay unchanged)
ENGINE_OPTIONS = ("sure_draws",)


#: the parts each impulse order (or step) may carry; "si A" and "si B" are the two options of 11.0
PARTS: dict[str, frozenset[str]] = {
    "pass": frozenset({"moves", "dl", "rails", "offroad", "recall", "disband"}),
    "ti": frozenset({"activate", "moves", "dl", "artillery", "air", "fight", "skip", "disband"}),
    "si A": frozenset({"moves", "dl", "rails", "offroad", "recall", "fight", "disband"}),
    "si B": frozenset({"draw", "fight", "disband"}),
    "blitz": frozenset({"moves", "artillery", "air"}),
    "exploit": frozenset({"moves"}),
}
VERB_NAMES = {"pass": "a Pass", "ti": "a Tactical Impulse", "si": "a Strategic Impulse",
              "blitz": "the Blitz Segment", "exploit": "an Exploitation Move"}
#: a part's word in the notation, and the rule that keeps it out, by verb ("*": any other); rail,
#: offroad and recall are refused by their own checks (OR 14.2, OR 14.4)
PART_RULES: dict[str, tuple[str, dict[str, str]]] = {
    "activate": ("activate", {"pass": "12.0: a Pass activates no HQ",
                              "*": "10.1, 11.0: HQs are activated only in a Tactical Impulse"}),
    "artillery": ("art", {"pass": "12.0: no combat in a Pass",
                          "*": "10.4, 11.0: artillery needs an HQ activated in a Tactical Impulse"}),
    "air": ("air", {"pass": "12.0: no combat in a Pass",
                    "*": "10.10, 11.0: bombers need an LW HQ activated in a Tactical Impulse"}),
    "fight": ("fight", {"pass": "12.0: no combat in a Pass", "*": "10.11: battles are chosen in the impulse"}),
    "skip": ("no blitz/exploit", {"*": "10.16, 10.18: only a Tactical Impulse is followed by them"}),
    "draw": ("draw", {"pass": "12.0, 5.0: reinforcements are drawn in the Logistics Phase or SI option B",
                      "*": "5.0, 11.0: reinforcements are drawn in the Logistics Phase or SI option B"}),
    "reinforce": ("reinforce", {"pass": "12.0, 5.0: reinforcements come in the Logistics Phase or SI option B",
                                "*": "5.0, 11.0: the blocks are drawn first (si B; draw N), then placed when "
                                     "asked (reinforce TOK AREA)"}),
    "zhukov_leningrad": ("zhukov leningrad", {"*": "OR 14.2: Zhukov, once drawn, is placed in the Leningrad box "
                                                   "(reinforce TOK Leningrad)"}),
    "moves": ("move", {"si": "11.0: option B moves no block", "*": "10.16, 10.18"}),
    "dl": ("dl", {"si": "11.0: option B builds no DL", "*": "10.18: no DL after the battles"}),
    "disband": ("disband", {"*": "4.1: with an impulse order"}),
    "regenerate": ("regen", {"*": "7.2.2: in the Logistics Phase only"}),
    "replace": ("replace", {"*": "7.2.2: in the Logistics Phase only"}),
}


class M41Rules(BaseRules):
    """The rules of Moscow '41 bound to one scenario."""

    def __init__(self, scenario: Scenario, options: dict[str, Any]):
        self.sc = scenario
        self.options = {k: options.get(k, d) for k, (d, _) in OPTIONS.items()}
        # every commit holds as many leaves as the side has blocks that can stand on the map
        most = max(sum(1 for s in scenario.blocks.values() if s.side == side and s.type != "leader") for side in SIDES)
        self.hidden_width = 8
        while self.hidden_width < most:
            self.hidden_width *= 2
        # 7.1 H4: set-up placements the opponent cannot tell apart form one group (same area, or same
        # owner-chosen limits; face-up ones apart); tokens are numbered by group, never by placement
        self.groups: dict[str, list[int]] = {}
        for i, p in enumerate(scenario.placements):
            if p.get("block") and p["block"] in scenario.blocks and scenario.spec(p["block"]).type == "leader":
                continue
            self.groups.setdefault(_group_key(p), []).append(i)

    # ---------------------------------------------------------------- set-up
    def position_of(self, state: State, seat: str | None) -> dict[str, Any]:
        return position.position_of(self, state, seat)

    def state_from_position(self, pos: dict[str, Any]) -> State:
        return position.state_from_position(self, pos)

    def initial_state(self) -> State:
        start = self.positioned_start()      # a game started from a position (position.py)
        if start is not None:
            return start
        sc = self.sc
        tokens: dict[str, dict[str, Any]] = {}
        group_of: dict[str, str] = {}
        count = {GERMAN: 0, SOVIET: 0}
        for key in sorted(self.groups, key=_group_order):
            for i in self.groups[key]:
                p = sc.placements[i]
                side = p["side"]
                count[side] += 1
                tok = f"{PREFIX[side]}{count[side]:02d}"
                tokens[tok] = _token(side, "" if "choose" in p else p["area"])     # owner-chosen: placed at set-up
                group_of[tok] = key
        limits = sc.limits
        return {
            "scenario": sc.id, "turn": int(sc.sequence["first_turn"]), "phase": "setup",
            "weather": sc.sequence["weather"], "forecast": None, "wx_impulses": 0,
            "initiative": sc.sequence["initiative"], "active": sc.sequence["initiative"], "passes": 0, "impulse": 0,
            "control": dict(sc.control), "dl": {d["area"]: d["side"] for d in sc.dls if "choose" not in d},
            "dl_pool": {GERMAN: limits["dl_pool_german"] - sum(1 for d in sc.dls if d["side"] == GERMAN
                                                               and "choose" not in d),
                        SOVIET: limits["dl_pool_soviet"] - sum(1 for d in sc.dls if d["side"] == SOVIET
                                                               and "choose" not in d)},
            "dl_cube": {GERMAN: [], SOVIET: []}, "leaders": {s: int(sc.sequence.get("leaders", {}).get(s, 4)) for s in SIDES},
            "stalin_alive": True,
            "discs": {k: v for k, v in sc.discs.items()},
            "pool_count": {s: len(sc.pools[s]) for s in SIDES},
            "eliminated": {GERMAN: [], SOVIET: []}, "surrendered": int(sc.sequence.get("soviet_surrendered", 0)),
            "german_lost": int(sc.sequence.get("german_lost", 0)), "lives": {},
            "next_token": dict(count), "tokens": tokens, "setup_group": group_of, "setup_done": [],
            "reinforcing": None,
            "logistics_queue": [], "contested_at_start": [], "combat": {"queue": [], "newly": [], "artillery": {}},
            "result": None, "options": {k: v for k, v in self.options.items() if k not in ENGINE_OPTIONS},
            "disc_uses": {GERMAN: 0, SOVIET: 0},
            "disc_turn": {GERMAN: 0, SOVIET: 0},
            "air": air.initial(sc),
            # each side's own part; the engine blanks the parts a program may not hold
            "hidden": {s: {"blocks": {}, "pool": list(sc.pools[s])} for s in SIDES},
        }

    # ------------------------------------------------- the core's hidden items
    def hidden_items(self, state: State, seat: str) -> dict[str, Any]:
        """The side's blocks on the map (and in the boxes), token -> {block,
        strength[, life]}: what its root commits after each exchange."""
        h = state["hidden"].get(seat) or {}
        return {t: dict(e) for t, e in h.get("blocks", {}).items()}

    def identity_of(self, seat: str, value: Any) -> str | None:
        """A block, in one of its lives: a block back from the pool (a Soviet
        block destroyed in battle, the 4th Panzer Gruppe after Leningrad)
        may stand under a new token (5.0, 10.14.3, 13.3)."""
        if not isinstance(value, dict) or not isinstance(value.get("block"), str):
            return None
        life = value.get("life", 0)
        return value["block"] if not life else f"{value['block']}#{life}"

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None:
        """What any shown block must be, checked in every program before the
        order is applied: a block of the side, not a leader, at a strength
        its sticker has (4.2.3; an HQ's heart is 0, 4.2.6), in its current
        life, and one that its token's set-up group may hold (5.3)."""
        sc = self.sc
        if not isinstance(value, dict) or set(value) - {"block", "strength", "life"}:
            return "not a block and strength"
        block, strength, life = value.get("block"), value.get("strength"), value.get("life", 0)
        spec = sc.blocks.get(block) if isinstance(block, str) else None
        if not isinstance(block, str) or spec is None or spec.side != seat or spec.type == "leader":
            return f"{block!r} is not a {seat} block"
        if not isinstance(strength, int) or isinstance(strength, bool) or not spec.minimum <= strength <= spec.max:
            return f"{block} has no strength {strength!r} ({spec.minimum}..{spec.max}, 4.2.3)"
        if spec.is_hq and strength == 1:
            return f"{block}: an HQ has no one-star level (4.2.6)"
        if life != state.get("lives", {}).get(block, 0):
            return f"{block} is not in its life {life!r}"
        v = state["tokens"].get(handle)
        if v is None or v["side"] != seat:
            return f"no {seat} token {handle}"
        key = state.get("setup_group", {}).get(handle)
        if key is not None and not any(self._fits(block, sc.placements[i]) for i in self.groups.get(key, [])):
            return f"{block} cannot stand on the set-up spot of {handle} ({_spot_words(sc.placements[self.groups[key][0]])})"
        return None

    def _fits(self, block: str, p: dict[str, Any]) -> bool:
        """Whether ``block`` may take set-up placement ``p``: the block it
        names, or a block of the icon's colour and type (5.3)."""
        if "block" in p:
            return p["block"] == block
        spec = self.sc.spec(block)
        return spec.colour == p.get("colour") and spec.type == p.get("type")

    # ------------------------------------------------------------- decisions
    def pending(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == "over":
            return None
        if state.get("reinforcing"):
            r = state["reinforcing"]
            return Decision(r["side"], "reinforce", f"{r['side']}: place the {len(r['tokens'])} blocks you drew "
                            f"({', '.join(r['tokens'])}) (5.0)", self._placement_options(state),
                            hint="reinforce TOK AREA ... (AREA `pool`: it cannot enter and goes back, 5.0)")
        if phase == "setup":
            for side in state["setup_done"]:
                if self._due_reveals(state, side):
                    return Decision(side, "reveal", f"{side}: the face-up set-up blocks are shown", ("reveal",),
                                    private=True)
            side = [s for s in self.sc.sequence["setup_order"] if s not in state["setup_done"]][0]
            # A player's order: where owner-chosen tokens go, any picks (secret); the
            # draws onto the icons and onto the tokens come from the side's secret stream
            return Decision(side, "setup", f"{side}: place your blocks (drawn in secret)", ("setup",))
        if phase == "logistics":
            side = state["logistics_queue"][0]
            return Decision(side, "logistics", f"{side}: Logistics Pause or Leader Activation",
                            ("logistics pause", "logistics activate; regen TOK N; replace TOK N; reinforce AREA..."),
                            hint="the LV is computed for you (7.2.1); ask: ? lv")
        if phase == "battle":
            battle = state["combat"].get("battle")
            if battle and battle.get("aa_due"):
                return Decision(GERMAN, "aa", f"german: {battle['aa_hits']} AA hits in "
                                f"{self.sc.area_name(battle['area'])} on {air.committed(battle)}: abort (1 hit) "
                                "or destroy (2 hits) which bombers (10.12.3)?",
                                ("aa abort", "aa destroy", "aa destroyed he111 N stuka N aborted he111 N stuka N"),
                                policy="aa")
            if battle and battle.get("tie"):
                side = state["tokens"][battle["tie"][0]]["side"]
                return Decision(side, "losses", f"{side}: which of your equal blocks in "
                                f"{self.sc.area_name(battle['area'])} takes the next hit (10.14)?",
                                tuple(f"losses {t}" for t in battle["tie"]), policy="losses")
            side = self._needs_reveal(state)
            areas = ", ".join(self.sc.area_name(a) for a in state["combat"]["queue"])
            return Decision(side, "reveal", f"{side}: showdown in {areas}", ("reveal",), private=True)
        if phase == "blitz":
            side = state["active"]
            return Decision(side, "blitz", f"{side}: Blitz Segment: {', '.join(self._blitzers(state))} may blitz (10.16)",
                            ("blitz", "blitz; move TOK AREA; art HQ AREA; air LWHQ AREA stuka N"), policy="blitz")
        if phase == "exploit":
            side = state["active"]
            return Decision(side, "exploit", f"{side}: spend the Initiative Disc on an Exploitation Move (10.18)?",
                            ("exploit no", "exploit; move TOK AREA..."), policy="exploit")
        if phase == "attrition":
            return Decision(state["active"], "attrition", "isolated blocks lose a step", ("attrition",), private=True)
        if phase == "crusader":
            return Decision(GERMAN, "crusader", "german: Operation Crusader: show your LW HQs, which leave the map "
                            "for good (OR 14.8)", ("crusader",), private=True)
        side = state["active"]
        opts = ["pass", "ti; activate HQ [AREA...]; move TOK AREA...; dl TOK; art HQ AREA; fight AREA"]
        if state["initiative"] == side:
            opts += ["si A; move TOK AREA...; dl TOK", "si B; draw N"]
        return Decision(side, "impulse", f"{side}: impulse {state['impulse']}, turn {state['turn']}", tuple(opts),
                        hint="ask: ? reach G05 | ? lv | ? supply  (e.g. ti; activate G03; move G05 14; art G03 14)")

    def _needs_reveal(self, state: State) -> str:
        for side in (state["active"], other(state["active"])):
            if self._due_reveals(state, side):
                return side
        raise AssertionError("no reveal due")

    def _due_reveals(self, state: State, side: str) -> list[str]:
        """Ruling 10.11: the order fixes the battles and their order, so every
        showdown of the Combat Segment is made at once, the attacker first:
        the defender answers a whole impulse with one reply."""
        if state["phase"] == "setup":
            return sorted(t for t, v in state["tokens"].items() if v["side"] == side and not v["revealed"]
                          and "/up" in state["setup_group"].get(t, ""))
        return sorted({t for a in state["combat"]["queue"] for t in tokens_in(state, a, side)
                       if not state["tokens"][t]["revealed"]})

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, side: str, order: Order, rng: Rng) -> tuple[State, list[Event]]:
        decision = self.pending(state)
        if decision is None:
            raise IllegalOrder("the game is over")
        if side != decision.side:
            raise IllegalOrder(f"it is {decision.side}'s turn to decide ({decision.kind}), not {side}'s")
        verb = order.get("verb")
        expected = {"setup": ("setup",), "logistics": ("logistics",), "reinforce": ("reinforce",), "reveal": ("reveal",), "losses": ("losses",), "aa": ("aa",),
                    "attrition": ("attrition",), "crusader": ("crusader",), "impulse": ("pass", "ti", "si"),
                    "blitz": ("blitz",), "exploit": ("exploit",)}[decision.kind]
        if verb not in expected:
            raise IllegalOrder(f"{decision.kind} expected, not {verb!r}")
        self._check_parts(order)
        self._check_names(state, side, order)
        events: list[Event] = []
        if order.get("disband"):
            if decision.kind != "impulse":
                raise IllegalOrder("Defensive Lines are disbanded with an impulse order (4.1)")
            self._disband(state, side, list(order["disband"]), events)
        handler = getattr(self, f"_apply_{verb}")
        handler(state, side, order, rng, events)
        return state, events

    def _check_parts(self, order: Order) -> None:
        """Refuse a part of an order that its impulse or step does not allow,
        naming the rule, rather than dropping it unread."""
        _check_shapes(order)
        verb = order.get("verb")
        if verb is None:        # no verb: no part is ruled out here (apply refuses it)
            return
        allowed = PARTS.get(verb if verb != "si" else f"si {order.get('option')}")
        if allowed is None:
            return
        for part, (word, why) in PART_RULES.items():
            present = order.get("secret", {}).get(part) if part in ("regenerate", "replace") else order.get(part)
            if part == "dl":
                present = present or order.get("dl_in") or order.get("secret", {}).get("dl")
            if present and part not in allowed:
                raise IllegalOrder(f"{word} is not part of {VERB_NAMES[verb]} ({why.get(verb, why['*'])})")

    def _check_names(self, state: State, side: str, order: Order) -> None:
        """Every block, HQ, token and area an order names exists, is the
        ordering side's where it must be, and is named once: a block named
        twice would act (or count) twice (10.7: one action per block)."""
        sc = self.sc
        tokens = state["tokens"]

        def own(tok: Any, what: str = "block") -> str:
            if not isinstance(tok, str) or tok not in tokens:
                raise IllegalOrder(f"{tok}: no such {side} {what} on the map")
            if tokens[tok]["side"] != side:
                raise IllegalOrder(f"{tok}: not a {side} {what}")
            return tok

        def area(a: Any) -> str:
            if not isinstance(a, str) or (a not in sc.terrain and a not in sc.boxes):
                raise IllegalOrder(f"{a}: no such area")
            return a

        def once(names: list[Any], what: str) -> None:
            seen: set[Any] = set()
            for n in names:
                if n in seen:
                    raise IllegalOrder(f"{n}: {what} named twice")
                seen.add(n)

        acting: list[str] = []
        for key in ("activate", "moves", "rails", "offroad", "recall"):
            for mv in order.get(key, []):
                acting.append(own(mv.get("token"), "HQ" if key == "activate" else "block"))
                for a in mv.get("path", []) + ([mv["to"]] if mv.get("to") is not None else []):
                    area(a)
        secret = order.get("secret") or {}
        acting += [own(t) for t in order.get("dl", []) + secret.get("dl", [])]
        for a in order.get("dl_in", []):
            area(a)
        once(acting, "block (one action per block, 10.7)")
        for hq, a in order.get("artillery", {}).items():
            own(hq, "HQ")
            area(a)
        for c in order.get("air", []):
            own(c.get("hq"), "LW HQ")
            area(c.get("area"))
            extra = sorted(set(c) - {"hq", "area", *air.TYPES})
            if extra:
                raise IllegalOrder(f"air: {extra[0]} is not a bomber (he111, stuka)")
        once([(c.get("hq"), c.get("area")) for c in order.get("air", [])], "LW HQ and area pair")
        once([area(a) for a in order.get("fight", [])], "battle area")
        once([area(a) for a in order.get("disband", [])], "Defensive Line")
        for a in order.get("reinforce", []):
            area(a)
        for key, word in (("regenerate", "regen"), ("replace", "replace")):
            for tok, n in secret.get(key, {}).items():
                own(tok)
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise IllegalOrder(f"{word} {tok}: {n!r} steps: name at least one step (7.2.2)")
        # losses: the token must be one of the tied blocks, checked with the tie (10.14)
        if order.get("verb") == "reinforce":
            for tok, a in order.get("place", {}).items():
                own(tok)
                if a != "pool":
                    area(a)
        if order.get("verb") == "setup":
            for tok, a in order.get("place", {}).items():
                own(tok)
                area(a)
            once([area(a) for a in order.get("dls", [])], "set-up DL area")
            assign = secret.get("assign", {})
            for tok in assign:
                own(tok)
            once(list(assign.values()), "block picked")
        if order.get("verb") == "aa":
            for key in ("destroyed", "aborted"):
                for t, n in (order.get(key) or {}).items():
                    if t not in air.TYPES or not isinstance(n, int) or n < 0:
                        raise IllegalOrder(f"aa {key}: {t} {n!r} is not a bomber count (he111, stuka)")

    def _disband(self, state: State, side: str, areas: list[str], events: list[Event]) -> None:
        """4.1: a player may take back his own DLs at any time to build new
        ones; done at the start of his impulse order, before any DL build."""
        for a in areas:
            if state["dl"].get(a) != side:
                raise IllegalOrder(f"{self.sc.area_name(a)}: no {side} Defensive Line to disband")
            del state["dl"][a]
            state["dl_pool"][side] += 1
            if a in state["dl_cube"][side]:
                state["dl_cube"][side].remove(a)
            events.append(Event(f"{side} disbands the DL in {self.sc.area_name(a)}", {"area": a}))

    # set-up (the owner's secret draw onto the icons, campaign set-up)
    def _apply_setup(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        mine = sorted(t for t, v in state["tokens"].items() if v["side"] == side)
        self._place_setup(state, side, order, mine, events)
        h = state["hidden"][side]
        picks = self._check_picks(state, side, (order.get("secret") or {}).get("assign", {})) if h is not None else {}
        # 5.3, 7.1 H4: the draws onto the icons, and which block stands behind which token of a
        # group, from the side's secret stream (every program asks for it; only the owner's gets it)
        srng = rng.secret(side)
        if srng is not None and h is not None:
            h["blocks"] = self._deal(state, side, mine, picks, srng)
        state["setup_done"].append(side)
        events.append(Event(f"{side} sets up {len(mine)} blocks", {"side": side}))
        self._setup_next(state, rng, events)

    def _setup_next(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Once every side has set up and shown its face-up blocks (Last
        Gasp), the first turn begins."""
        if len(state["setup_done"]) < len(SIDES) or any(self._due_reveals(state, s) for s in state["setup_done"]):
            return
        for a in self.sc.sequence.get("contested_start", []):
            if not (tokens_in(state, a, GERMAN) and has_units(state, a, SOVIET)):
                raise IllegalOrder(f"{self.sc.area_name(a)} starts contested: it needs units of both sides")
        if self.sc.sequence.get("start_phase") == "logistics":
            self._begin_logistics(state, rng, events)
        else:
            self._begin_impulses(state, rng, events)

    def _free_blocks(self, side: str) -> list[str]:
        """The blocks drawn onto set-up icons: none a placement names, none
        in the pool or arriving later, no leader (5.3)."""
        sc = self.sc
        fixed = {sc.placements[i].get("block") for ids in self.groups.values() for i in ids}
        return [b for b, s in sc.blocks.items() if s.side == side and b not in fixed and b not in sc.pools[side]
                and s.type != "leader" and not any(b in a["blocks"] for a in sc.arrivals)]

    def _check_picks(self, state: State, side: str, picks: dict[str, str]) -> dict[str, tuple[str, int]]:
        """The owner's set-up picks (secret): a block for a token where the
        scenario lets him pick (a ``pick`` icon), or which named block goes
        where among owner-placed tokens.  Checked before any draw."""
        sc = self.sc
        free = self._free_blocks(side)
        used: set[int] = set()
        out: dict[str, tuple[str, int]] = {}
        for tok, block in sorted(picks.items()):
            key = state["setup_group"].get(tok)
            if key is None or block not in sc.blocks:
                raise IllegalOrder(f"{tok}: {block} cannot be picked here")
            slot = next((i for i in self.groups[key] if i not in used and self._fits(block, sc.placements[i])
                         and (("choose" in sc.placements[i] and "block" in sc.placements[i])
                              or (sc.placements[i].get("pick") and block in free))), None)
            if slot is None:
                raise IllegalOrder(f"{tok}: {block} cannot be picked here")
            used.add(slot)
            if block in free:
                free.remove(block)
            out[tok] = (block, slot)
        return out

    def _deal(self, state: State, side: str, mine: list[str], picks: dict[str, tuple[str, int]],
              srng: Rng) -> dict[str, dict[str, Any]]:
        """The owner's program: draw the icon blocks at random from the free
        blocks, then deal each group's blocks onto its tokens by a secret
        permutation, so a token's number tells nothing (7.1 H4)."""
        sc = self.sc
        picked = {b for b, _ in picks.values()}
        free = srng.shuffle([b for b in self._free_blocks(side) if b not in picked], "set-up draw onto the icons")
        out: dict[str, dict[str, Any]] = {}
        for key in sorted({state["setup_group"][t] for t in mine}, key=_group_order):
            toks = [t for t in mine if state["setup_group"][t] == key]
            slots = [i for i in self.groups[key] if i not in {slot for _, slot in picks.values()}]
            for t in toks:
                if t in picks:
                    block, slot = picks[t]
                    out[t] = {"block": block, "strength": _placed_strength(sc.spec(block), sc.placements[slot])}
            fill = []
            for i in slots:
                p = sc.placements[i]
                drawn = p.get("block") or next((b for b in free if self._fits(b, p)), None)
                if drawn is None:
                    raise IllegalOrder(f"no {p['colour']} {p['type']} block left to draw for {key}")
                if "block" not in p:
                    free.remove(drawn)
                fill.append({"block": drawn, "strength": _placed_strength(sc.spec(drawn), p)})
            for t, e in zip([t for t in toks if t not in picks], srng.shuffle(fill, "set-up: blocks onto tokens")):
                out[t] = e
        return out

    def _place_setup(self, state: State, side: str, order: Order, mine: list[str], events: list[Event]) -> None:
        """Owner-chosen set-up areas (Typhoon, Last Gasp): every token whose
        placement says ``choose`` goes where the order's ``place`` puts it,
        within the placement's limits; DLs that say ``choose`` go where the
        order's ``dls`` list puts them.  Positions are public; stacking holds
        (scenario set-up, no overstacking)."""
        sc = self.sc
        place = dict(order.get("place", {}))
        for tok in mine:
            p = sc.placements[self.groups[state["setup_group"][tok]][0]]
            if "choose" not in p:
                if tok in place:
                    raise IllegalOrder(f"{tok}: the scenario fixes its area ({sc.area_name(p['area'])})")
                continue
            area = place.pop(tok, None)
            if area is None:
                raise IllegalOrder(f"{tok}: the set-up must say where it goes ({_where(p)})")
            if not self._setup_area_ok(state, side, area, p):
                raise IllegalOrder(f"{tok}: {sc.area_name(area)} is not {_where(p)}")
            state["tokens"][tok]["area"] = area
        if place:
            raise IllegalOrder(f"{sorted(place)[0]}: not a {side} token placed by choice")
        for tok in mine:
            if state["tokens"][tok]["area"] and not sc.is_box(state["tokens"][tok]["area"]):
                mx.check_stacking(state, sc, side, state["tokens"][tok]["area"], tok)
        wanted = [d for d in sc.dls if d["side"] == side and "choose" in d]
        dls = list(order.get("dls", []))
        if len(dls) != len(wanted):
            raise IllegalOrder(f"the {side} set-up places {len(wanted)} Defensive Lines by choice, not {len(dls)}")
        for area, d in zip(dls, wanted):
            if area in state["dl"] or sc.is_box(area) or not self._setup_area_ok(state, side, area, d):
                raise IllegalOrder(f"DL: {sc.area_name(area)} is not {_where(d)}, or has a DL already")
            state["dl"][area] = side
            state["dl_pool"][side] -= 1
        if order.get("place") or dls:
            events.append(Event(f"{side} places " + ", ".join(f"{t} in {a}" for t, a in sorted(order.get("place", {})
                                                                                                 .items()))
                                + (f"; DLs in {', '.join(dls)}" if dls else ""), {"place": order.get("place", {})}))

    def _setup_area_ok(self, state: State, side: str, area: str, p: dict[str, Any]) -> bool:
        """The limits of an owner-chosen set-up area: ``adjacent`` to / ``near``
        (in or next to) the area ``of``; ``controlled`` by the side;
        ``frontline``: controlled and bordering an enemy-held area (our reading
        of "along the frontline"); ``list``: one of ``areas``."""
        sc = self.sc
        if area not in sc.terrain or sc.is_box(area):
            return False
        kind = p["choose"]
        if kind == "adjacent":
            return sc.graph.adjacent(area, p["of"])
        if kind == "near":
            return area == p["of"] or sc.graph.adjacent(area, p["of"])
        if kind == "controlled":
            return state["control"][area] == side
        if kind == "frontline":
            return state["control"][area] == side and any(state["control"].get(n) == other(side)
                                                          for n in sc.graph.neighbors(area))
        if kind == "list":
            return area in p["areas"]
        raise ScenarioError(f"unknown set-up choice {kind!r}")

    # logistics (7)
    def _apply_logistics(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        choice = order.get("choice")
        if choice == "pause":
            state["leaders"][side] = self.sc.spec(_leader(self.sc, side)).max
            events.append(Event(f"{side}: Logistics Pause, leader back to full strength", {"side": side}))
        elif choice == "activate":
            if order.get("reinforce"):
                raise IllegalOrder("reinforcements are drawn first and placed when your program asks "
                                   "(reinforce TOK AREA), not named in the activation (5.0)")
            lv = mx.check_lv_claim(state, self.sc, side, order.get("lv"))
            if state["hidden"][side] is not None:
                self._rebuild(state, side, order, lv)
            elif (order.get("secret") or {}).get("regenerate") or (order.get("secret") or {}).get("replace"):
                raise IllegalOrder("a rebuild travels in the order's secret part")      # pragma: no cover
            # 7.1 H5: whether and what was rebuilt is never shown; the line is the same every time
            events.append(Event(f"{side}: regeneration and replacement points spent in secret (7.2.2)", {}))
            state["leaders"][side] = max(0, state["leaders"][side] - 1)
            n = min(lv, state["pool_count"][side])         # 5.0, 7.2: exactly LV, or the whole pool (ruling)
            events.append(Event(f"{side}: Leader Activation, LV {lv}, {n} reinforcements drawn", {"lv": lv, "n": n}))
            if self._draw(state, side, n, {"after": "logistics"}, rng, events):
                return
        else:
            raise IllegalOrder("logistics: pause or activate")
        self._logistics_done(state, rng, events)

    def _logistics_done(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["logistics_queue"].pop(0)
        if not state["logistics_queue"]:
            self._begin_impulses(state, rng, events)

    def _rebuild(self, state: State, side: str, order: Order, lv: int) -> None:
        """The owner's side of 7.2.2 (his program, and the audit): HQ steps at
        1 point each, combat steps at the price of their colour, each pool no
        larger than the LV; only blocks neither engaged nor isolated."""
        secret = order.get("secret") or {}
        regen = secret.get("regenerate", {})
        repl = secret.get("replace", {})
        if sum(regen.values()) > lv:
            raise IllegalOrder(f"regeneration of {sum(regen.values())} steps exceeds the LV of {lv}")
        cost = 0
        new: dict[str, int] = {}
        for tok in sorted(set(regen) | set(repl), key=mx.natural):
            v = state["tokens"][tok]
            if contested(state, v["area"]) or v.get("cube") or v.get("revealed"):
                raise IllegalOrder(f"{tok}: engaged or isolated blocks cannot be rebuilt (7.2.2)")
            block, strength = known(state, tok) or ("", 0)
            spec = self.sc.spec(block)
            now = strength
            if tok in regen:
                if not spec.is_hq:
                    raise IllegalOrder(f"{tok}: only HQs regenerate")
                for _ in range(regen[tok]):
                    now = hq_up(now)
            if tok in repl:
                if not spec.is_combat:
                    raise IllegalOrder(f"{tok}: only combat blocks take replacements")
                if strength + repl[tok] > spec.max:
                    raise IllegalOrder(f"{tok}: above full strength")
                cost += mx.replacement_cost(self.sc, spec, strength, repl[tok])
                now = strength + repl[tok]
            if now > spec.max:
                raise IllegalOrder(f"{tok}: above full strength")
            new[tok] = now
        if cost > lv:
            raise IllegalOrder(f"replacements cost {cost} points, the LV pays {lv}")
        for tok, now in new.items():
            state["hidden"][side]["blocks"][tok]["strength"] = now

    def _draw(self, state: State, side: str, n: int, then: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        """5.0: draw ``n`` blocks face down from the pool onto new tokens.
        The draw comes from the side's secret stream, asked for in every
        program (under sealed dice it waits for a reveal the owner could not
        know when he chose); the public effect is the count and the new
        tokens, which wait off the map until their owner places them
        (decision ``reinforce``).  False when nothing is drawn."""
        if n <= 0:
            return False
        # The pool's last block is no chance: it needs no secret stream, so
        # no wait for a reveal (docs/FILE-FORMAT.md, Dice: sure draws).
        sure = bool(self.options["sure_draws"]) and n == state["pool_count"][side] == 1
        srng = None if sure else rng.secret(side)
        toks = []
        for _ in range(n):
            state["next_token"][side] += 1
            tok = f"{PREFIX[side]}{state['next_token'][side]:02d}"
            state["tokens"][tok] = _token(side, "")
            toks.append(tok)
        state["pool_count"][side] -= n
        h = state["hidden"][side]
        if (sure or srng is not None) and h is not None:
            for tok in toks:
                block = h["pool"].pop(0 if srng is None else srng.draw(h["pool"], "reinforcement"))
                entry: dict[str, Any] = {"block": block, "strength": self.sc.spec(block).entry_strength()}
                if state["lives"].get(block):
                    entry["life"] = state["lives"][block]
                h["blocks"][tok] = entry
        state["reinforcing"] = dict(then, side=side, tokens=toks)
        return True

    def _entries(self, state: State, side: str, block: str) -> list[str]:
        """Where a drawn block may enter (5.0, 11.0): a German 'L' block joins
        Hoepner's box on the Road (D38), an army-coloured one its own Staging
        Area, any other any Staging Area; a Soviet block a Soviet,
        uncontested, supplied City or Victory Area, and Zhukov the Leningrad
        box too while OR 14.2 lets Stalin send him there."""
        sc = self.sc
        spec = sc.spec(block)
        if side == GERMAN:
            if spec.letter == "L" and sc.road_in_play:
                return [a for a in sc.road if self._hoepner_box(state) == a]
            if spec.colour in sc.staging_colour.values():
                return [a for a, c in sc.staging_colour.items() if c == spec.colour]
            return list(sc.staging)
        supplied = mx.supplied_areas(state, sc, side)
        out = sorted((a for a in set(sc.cities) | set(sc.victory.values())
                      if mx.friendly_uncontested(state, a, side) and a in supplied), key=mx.natural)
        box = self._zhukov_box(state)
        return out + ([box] if box and block == sc.zhukov() else [])

    def _hoepner_box(self, state: State) -> str | None:
        """The Road box where Hoepner stands (public: only he and his group
        stand on the Road, 10.9)."""
        return next((v["area"] for v in state["tokens"].values() if v["side"] == GERMAN and v["area"] in self.sc.road),
                    None)

    def _placement_options(self, state: State) -> tuple[str, ...]:
        """The legal placements of the drawn blocks, in the owner's program:
        first a whole order (each block where it first may go, Soviets one
        per area), then each block's choices."""
        r = state["reinforcing"]
        side = r["side"]
        h = state["hidden"].get(side)
        if h is None or any(t not in h["blocks"] for t in r["tokens"]):
            return ("reinforce TOK AREA ...",)
        used: set[str] = set()
        whole: list[str] = []
        each: list[str] = []
        for tok in r["tokens"]:
            block = h["blocks"][tok]["block"]
            areas = self._entries(state, side, block)
            free = [a for a in areas if (side == GERMAN or a not in used)
                    and mx.stack_count(state, self.sc, a, side) + whole.count(f"@{a}") < mx.stacking_limit(self.sc, a)]
            pick = free[0] if free else "pool"
            used.add(pick)
            whole.append(f"@{pick}")
            whole.append(f"{tok} {pick}")
            each.append(f"reinforce {tok} " + "|".join(areas or ["pool"]) + f"   ({block})")
        return ("reinforce " + " ".join(w for w in whole if not w.startswith("@")), *each)

    def _check_reinforce(self, state: State, side: str, areas: list[str], lv: int | None = None) -> list[str]:
        """Public checks of where drawn blocks enter (5.0, 11.0), made in
        every program: German blocks in a Staging Area or Hoepner's box;
        Soviet ones in a Soviet, uncontested, supplied City or Victory
        Area, one per area per deployment (AMB-35), or Zhukov's box."""
        sc = self.sc
        if lv is not None and len(areas) > lv:
            raise IllegalOrder(f"at most {lv} reinforcements")
        seen: set[str] = set()
        supplied = mx.supplied_areas(state, sc, side)
        for a in areas:
            if side == SOVIET and a == self._zhukov_box(state):
                if a in seen:
                    raise IllegalOrder(f"{a}: one reinforcement per area")
                seen.add(a)
            elif side == SOVIET:
                if a not in sc.victory.values() and a not in sc.cities:
                    raise IllegalOrder(f"{sc.area_name(a)}: Soviet reinforcements enter a City or Victory Area")
                if not mx.friendly_uncontested(state, a, side) or a not in supplied:
                    raise IllegalOrder(f"{sc.area_name(a)}: must be Soviet, uncontested and in supply")
                if a in seen:
                    raise IllegalOrder(f"{sc.area_name(a)}: one reinforcement per area")
                seen.add(a)
            elif a not in sc.staging and not (sc.road_in_play and a == self._hoepner_box(state)):
                raise IllegalOrder(f"{a}: German reinforcements enter a Staging Area or Hoepner's box (11.0)")
        return list(areas)

    def _zhukov_box(self, state: State) -> str | None:
        """OR 14.2: the Leningrad box, while a drawn Zhukov may still be sent
        there (the Road in play, Leningrad Soviet, Zhukov never recalled)."""
        sc = self.sc
        if not (self.options["or14_2_zhukov_hoepner"] and sc.road_in_play) or state.get("zhukov_recalled"):
            return None
        return sc.road[-1] if state["discs"]["leningrad"] == SOVIET else None

    def _apply_reinforce(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """The owner places the blocks he drew (5.0): each where its block may
        enter, or back to the pool when it may enter nowhere (5.0 note)."""
        sc = self.sc
        r = state["reinforcing"]
        place = dict(order.get("place", {}))
        if sorted(place) != sorted(r["tokens"]):
            raise IllegalOrder(f"place each block drawn: {', '.join(r['tokens'])} (reinforce TOK AREA ..., "
                               "or TOK pool when it can enter nowhere)")
        entering = [place[t] for t in r["tokens"] if place[t] != "pool"]
        self._check_reinforce(state, side, entering)
        h = state["hidden"][side]
        if h is not None:
            for tok in r["tokens"]:
                block = h["blocks"][tok]["block"]
                areas = self._entries(state, side, block)
                if place[tok] == "pool" and areas:
                    raise IllegalOrder(f"{tok}: {block} can enter {', '.join(areas)}; only a block with nowhere "
                                       "to go goes back to the pool (5.0)")
                if place[tok] != "pool" and place[tok] not in areas:
                    raise IllegalOrder(f"{tok}: {block} enters {' or '.join(areas) or 'nowhere (pool)'} "
                                       "(5.0, 11.0, D38, OR 14.2)")
        for tok in r["tokens"]:
            if place[tok] == "pool":
                del state["tokens"][tok]
                state["pool_count"][side] += 1
                if h is not None:
                    h["pool"].append(h["blocks"].pop(tok)["block"])
                continue
            area = place[tok]
            state["tokens"][tok]["area"] = area
            # where the box itself tells which block it is, say why it is there
            if side == GERMAN and area in sc.road:
                events.append(Event(f"{tok} joins Hoepner in {area}: a drawn 'L' block enters his box (5.0, 11.0)",
                                    {"token": tok, "area": area}))
            elif side == SOVIET and sc.is_box(area):
                events.append(Event(f"{tok}: Zhukov, drawn, is sent to the {area} box (OR 14.2)",
                                    {"token": tok, "area": area}))
        for tok in r["tokens"]:
            if tok in state["tokens"]:
                mx.check_stacking(state, sc, side, state["tokens"][tok]["area"], tok)
        state["reinforcing"] = None
        if entering:
            events.append(Event(f"{side} deploys reinforcements in {', '.join(entering)}", {"areas": entering}))
        if r["after"] == "logistics":
            self._logistics_done(state, rng, events)
        else:
            self._start_combat(state, side, {"fight": r.get("fight", [])}, {}, rng, events)

    # impulses (10, 11, 12)
    def _apply_pass(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        know = self._knows(state, side, order)
        if self._action_count(order, "pass") > 1:
            raise IllegalOrder("a Pass lets one block act (12)")
        self._acts(state, side, order, "pass", know, [], events)
        events.append(Event(f"{side} passes", {"side": side}))
        state["combat"] = {"queue": [], "newly": [], "artillery": {}, "pass": True}
        self._finish_combat(state, rng, events)      # a Pass still ends with the Isolation Check

    def _apply_si(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        if state["initiative"] != side:
            raise IllegalOrder("a Strategic Impulse needs the Initiative Disc (11)")
        self._check_disc(state, side)
        lv = mx.check_lv_claim(state, self.sc, side, order.get("lv"))
        know = self._knows(state, side, order)
        option = order.get("option")
        if option == "A":
            if self._action_count(order, "si") > lv:
                raise IllegalOrder(f"a Strategic Impulse moves at most LV = {lv} blocks")
            self._acts(state, side, order, "si", know, [], events)
        elif option == "B":
            n = order.get("draw", 0)
            if self._action_count(order, "si"):
                raise IllegalOrder("Option B deploys reinforcements only")
            most = min(lv, state["pool_count"][side])
            if not 1 <= n <= most:
                raise IllegalOrder(f"SI option B draws 1 to {most} blocks (11.0: up to the LV, from the pool): "
                                   "si B; draw N")
            now = mx.contested_areas(state)
            for a in order.get("fight", []):        # checked whole before the draw
                if a not in state["contested_at_start"] or a not in now or not tokens_in(state, a, side):
                    raise IllegalOrder(f"{a}: no optional battle there")
            self._spend_disc(state, side)
            events.append(Event(f"{side} spends the Initiative Disc (SI option B, LV {lv}): {n} reinforcements drawn",
                                {"lv": lv, "n": n}))
            self._draw(state, side, n, {"after": "si", "fight": list(order.get("fight", []))}, rng, events)
            return
        else:
            raise IllegalOrder("si A or si B")
        self._spend_disc(state, side)
        events.append(Event(f"{side} spends the Initiative Disc (SI option {option}, LV {lv})", {"lv": lv}))
        self._start_combat(state, side, order, {}, rng, events)

    @staticmethod
    def _action_count(order: Order, mode: str) -> int:
        """Blocks acting in a Pass or Strategic Impulse: moves, DL builds, rail
        moves (OR 14.4), Zhukov's recall, and the 4th Panzer Gruppe leaving
        the Road: one action in a Pass, one per block in an SI (AMB-31)."""
        n = sum(len(order.get(k, [])) for k in ("moves", "rails", "recall")) + len(order.get("dl") or order.get("dl_in")
                                                                                 or [])
        if order.get("offroad"):
            n += 1 if mode == "pass" else len(order["offroad"])
        return n

    def _disc_left(self, state: State, side: str) -> bool:
        """Scenario limit on spending the Initiative Disc (per player, per turn
        or per game; AMB-4)."""
        limit = self.sc.sequence.get("disc_limit")
        if not limit:
            return True
        used = state["disc_uses"][side] if limit.get("per") == "game" else state.get("disc_turn", {}).get(side, 0)
        return used < int(limit["uses"])

    def _spend_disc(self, state: State, side: str) -> None:
        """The disc goes to the opponent, who may spend it in turn (AMB-4)."""
        state["initiative"] = other(side)
        state["disc_uses"][side] += 1
        state.setdefault("disc_turn", {GERMAN: 0, SOVIET: 0})[side] += 1

    def _check_disc(self, state: State, side: str) -> None:
        if state["initiative"] != side:
            raise IllegalOrder("spending the Initiative Disc needs it (11, 10.18)")
        if not self._disc_left(state, side):
            lim = self.sc.sequence["disc_limit"]
            raise IllegalOrder(f"the Initiative Disc may be spent {lim['uses']} time(s) per {lim['per']} here")

    def _apply_ti(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        sc = self.sc
        know = self._knows(state, side, order)
        hqs: list[str] = []
        lw_hqs: list[str] = []
        for act in order.get("activate", []):
            tok = act["token"]
            v = state["tokens"].get(tok)
            if v is None or v["side"] != side:
                raise IllegalOrder(f"{tok}: not a {side} block")
            if v.get("cube"):
                raise IllegalOrder(f"{tok}: an Isolated HQ cannot be activated (9.1)")
            if not v["revealed"]:
                self._open(state, side, tok, order)
            spec = sc.spec(v["block"])
            if spec.type == "lwhq":
                self._activate_lw(state, side, tok, act, hqs, lw_hqs)
                continue
            if spec.type != "hq":
                raise IllegalOrder(f"{tok}: {v['block']} is not an HQ")
            if sc.is_box(v["area"]):
                if v["area"] not in sc.road or act.get("path") or not sc.road_in_play:
                    raise IllegalOrder(f"{tok}: no HQ is activated in a box, but Hoepner on his Road (10.1, 10.9)")
                v["activated"] = True
                hqs.append(tok)
                state.setdefault("road_advance", []).append(tok)
                continue
            path = list(act.get("path", []))
            mx.check_path(state, sc, side, tok, path, mx.allowance(sc, spec, state), may_engage=False)
            mx.do_move(state, sc, side, tok, path)
            end = v["area"]
            if has_units(state, end, other(side)):
                raise IllegalOrder(f"{tok}: an HQ is not revealed among enemy units (10.1)")
            mx.check_stacking(state, sc, side, end, tok)
            v["activated"] = True
            hqs.append(tok)
        if not hqs:
            raise IllegalOrder("a Tactical Impulse activates at least one Tactical HQ (10.1)")
        for hq in state.get("road_advance", []):
            if hq in order.get("artillery", {}):
                raise IllegalOrder(f"{hq}: Hoepner has no artillery on the Road (10.9)")
        self._acts(state, side, order, "ti", know, hqs, events)
        artillery: dict[str, list[str]] = {}
        for hq, area in order.get("artillery", {}).items():
            if hq not in hqs or state["tokens"][hq]["strength"] <= 0:
                raise IllegalOrder(f"{hq}: only an activated HQ with stars fires artillery (10.4)")
            if not self._has_artillery(state, hq):
                raise IllegalOrder(f"{hq}: Hoepner has no artillery (10.2; OR 14.2 or the scenario may give it)")
            if not sc.graph.adjacent(state["tokens"][hq]["area"], area) or not contested(state, area):
                raise IllegalOrder(f"{hq}: artillery goes into one adjacent contested area")
            artillery.setdefault(area, []).append(hq)
        bombers = air.check_commitments(state, sc, order.get("air", []), lw_hqs)
        events.append(Event(f"{side} Tactical Impulse: {', '.join(hqs + lw_hqs)} activated", {"hqs": hqs}))
        self._start_combat(state, side, order, artillery, rng, events, bombers, mode="ti")

    def _activate_lw(self, state: State, side: str, tok: str, act: dict[str, Any], hqs: list[str],
                     lw_hqs: list[str]) -> None:
        """10.10: an LW HQ is activated only after a Tactical HQ, never when
        exhausted; it may move first like any HQ and is revealed outside enemy
        areas.  It commands nobody and fires no artillery."""
        sc = self.sc
        v = state["tokens"][tok]
        if not hqs:
            raise IllegalOrder(f"{tok}: an LW HQ is activated only after a Tactical HQ (10.10)")
        if v["strength"] <= 0:
            raise IllegalOrder(f"{tok}: an exhausted LW HQ cannot be activated (10.10)")
        if sc.is_box(v["area"]):
            raise IllegalOrder(f"{tok}: no HQ is activated in a box (10.1)")
        path = list(act.get("path", []))
        mx.check_path(state, sc, side, tok, path, mx.allowance(sc, sc.spec(v["block"]), state), may_engage=False)
        mx.do_move(state, sc, side, tok, path)
        if has_units(state, v["area"], other(side)):
            raise IllegalOrder(f"{tok}: an HQ is not revealed among enemy units (10.1)")
        mx.check_stacking(state, sc, side, v["area"], tok)
        v["activated"] = True
        lw_hqs.append(tok)

    def _acts(self, state: State, side: str, order: Order, mode: str, know: bool, hqs: list[str],
              events: list[Event]) -> None:
        """Moves and Defensive Line builds, one action per block (10.7, 11, 12)."""
        sc = self.sc
        acted: set[str] = set()
        for mv in order.get("moves", []):
            tok = mv["token"]
            self._can_act(state, side, tok, acted, hqs, mode)
            ident = known(state, tok)
            spec = sc.spec(ident[0]) if ident else None
            path = list(mv.get("path", []))
            if not path:
                raise IllegalOrder(f"{tok}: a move needs at least one area")
            mx.check_path(state, sc, side, tok, path, mx.allowance(sc, spec, state), may_engage=(mode != "pass"))
            mx.do_move(state, sc, side, tok, path)
            mx.check_stacking(state, sc, side, path[-1], tok)
            events.append(Event(f"{tok} moves to {sc.area_name(path[-1])}", {"token": tok, "path": path}))
        for mv in order.get("rails", []):
            self._rail(state, side, mv, acted, hqs, mode, events)
        if order.get("offroad"):
            self._offroad(state, side, list(order["offroad"]), acted, mode, events)
        for mv in order.get("recall", []):
            self._recall(state, side, mv, acted, mode, events)
        # 4.1, 10.8: which block pays the step is secret (7.1 H2): the public order names the area
        # (``dl_in``), the owner's secret part the block (``dl``)
        builders = list(order.get("dl", [])) or list((order.get("secret") or {}).get("dl", []))
        where = list(order.get("dl_in", [])) if not order.get("dl") else [state["tokens"][t]["area"] for t in builders]
        if know and builders and [state["tokens"][t]["area"] for t in builders] != where:
            raise IllegalOrder("the secret DL builders do not stand where the order builds")
        if know and not builders and where:
            raise IllegalOrder("the order's secret part lacks the blocks that build its DLs")
        for i, area in enumerate(where):
            tok = builders[i] if know or order.get("dl") else None
            if tok is not None:
                self._can_act(state, side, tok, acted, hqs, mode)
            elif not any(not state["tokens"][t].get("cube") for t in tokens_in(state, area, side)):
                raise IllegalOrder(f"{sc.area_name(area)}: no {side} block there can build a DL (4.1, 9.1)")
            if not mx.friendly_uncontested(state, area, side) or area in state["dl"] or sc.is_box(area):
                raise IllegalOrder(f"{tok or area}: a DL goes in a friendly uncontested area without one (4.1)")
            if state["dl_pool"][side] <= 0:
                raise IllegalOrder(f"{side} has no Defensive Line left")
            ident = known(state, tok) if tok is not None else None
            # a face-up block there is stood upright: which one paid stays secret (7.1 H2)
            for t in tokens_in(state, area, side):
                mx.conceal(state, t)
            if ident is not None:
                spec = sc.spec(ident[0])
                if not spec.is_combat or ident[1] <= spec.minimum:
                    raise IllegalOrder(f"{tok}: only a combat block above minimum strength builds a DL (10.8)")
                if state["hidden"][side] is not None:
                    state["hidden"][side]["blocks"][tok]["strength"] = ident[1] - 1
            state["dl"][area] = side
            state["dl_pool"][side] -= 1
            events.append(Event(f"{side} builds a DL in {sc.area_name(area)}", {"area": area}))

    def _rail(self, state: State, side: str, mv: dict[str, Any], acted: set[str], hqs: list[str], mode: str,
              events: list[Event]) -> None:
        """OR 14.4: in a Pass or SI a block (not Isolated) rail-moves any
        distance from, through and to friendly uncontested areas."""
        sc = self.sc
        tok, dest = mv["token"], mv.get("to")
        if not self.options["or14_4_rail"]:
            raise IllegalOrder("rail movement is optional rule 14.4, not in play")
        if mode not in ("pass", "si"):
            raise IllegalOrder(f"{tok}: rail moves only in a Pass or a Strategic Impulse (14.4)")
        self._can_act(state, side, tok, acted, hqs, mode)
        if dest not in mx.rail_reach(state, sc, side, state["tokens"][tok]["area"]):
            where = sc.area_name(dest) if dest is not None else dest      # a move that names no area: None
            raise IllegalOrder(f"{tok}: no rail line through friendly uncontested areas to {where} (14.4)")
        state["tokens"][tok].update(area=dest, moved=True)
        mx.check_stacking(state, sc, side, dest, tok)
        events.append(Event(f"{tok} moves by rail to {sc.area_name(dest)}", {"token": tok, "to": dest}))

    def _offroad(self, state: State, side: str, moves: list[dict[str, Any]], acted: set[str], mode: str,
                 events: list[Event]) -> None:
        """OR 14.2, Hitler calls off Leningrad: in a Pass or SI, once the whole
        4th Panzer Gruppe stands on the Road, the German brings it onto the
        map, each block into a German, uncontested, supplied area, for good."""
        sc = self.sc
        if not self.options["or14_2_zhukov_hoepner"] or side != GERMAN or mode not in ("pass", "si"):
            raise IllegalOrder("the 4th Panzer Gruppe leaves the Road only under OR 14.2, in a Pass or SI")
        on_road = sorted(t for t, v in state["tokens"].items() if v["side"] == GERMAN and v["area"] in sc.road)
        group = [b for b, spec in sc.blocks.items() if spec.letter == "L" and spec.side == GERMAN]
        if len(on_road) != len(group) or sorted(m["token"] for m in moves) != on_road:
            raise IllegalOrder(f"all {len(group)} 4th Panzer Gruppe blocks must be on the Road, and all leave it (14.2)")
        supplied = mx.supplied_areas(state, sc, GERMAN)
        for m in moves:
            tok, dest = m["token"], m.get("to")
            if tok in acted:
                raise IllegalOrder(f"{tok}: one action per block")
            acted.add(tok)
            if sc.is_box(dest or "") or dest not in sc.terrain or not mx.friendly_uncontested(state, dest, GERMAN) \
                    or dest not in supplied:
                raise IllegalOrder(f"{tok}: leaves the Road for a German, uncontested, supplied area (14.2)")
            state["tokens"][tok].update(area=dest, moved=True)
            mx.check_stacking(state, sc, GERMAN, dest, tok)
        state["hoepner_off_road"] = True
        events.append(Event("Hitler calls off Leningrad: the 4th Panzer Gruppe joins the front", {}))

    def _recall(self, state: State, side: str, mv: dict[str, Any], acted: set[str], mode: str,
                events: list[Event]) -> None:
        """OR 14.2: in a Pass or SI Zhukov leaves the Leningrad box, keeping
        his strength, for a Soviet, uncontested, supplied area next to Moscow;
        he never goes back."""
        sc = self.sc
        tok, dest = mv["token"], mv.get("to")
        v = state["tokens"].get(tok)
        if not self.options["or14_2_zhukov_hoepner"] or side != SOVIET or mode not in ("pass", "si"):
            raise IllegalOrder("Zhukov is recalled only under OR 14.2, in a Pass or SI")
        if v is None or v["side"] != SOVIET or v["area"] != sc.road[-1]:
            raise IllegalOrder(f"{tok}: not Zhukov in the Leningrad box")
        if tok in acted:
            raise IllegalOrder(f"{tok}: one action per block")
        acted.add(tok)
        if dest is None or not sc.graph.adjacent(dest, sc.moscow) or not mx.friendly_uncontested(state, dest, SOVIET) \
                or dest not in mx.supplied_areas(state, sc, SOVIET):
            raise IllegalOrder(f"{tok}: Zhukov returns to a Soviet, uncontested, supplied area next to Moscow (14.2)")
        v.update(area=dest, moved=True)
        mx.check_stacking(state, sc, SOVIET, dest, tok)
        state["zhukov_recalled"] = True
        events.append(Event(f"Zhukov is recalled from Leningrad to {sc.area_name(dest)}", {"to": dest}))

    def _hoepner_on_map(self, state: State, tok: str) -> bool:
        """Hoepner acts as a Fast Blitz HQ once on the map under OR 14.2."""
        v = state["tokens"][tok]
        return (self.options["or14_2_zhukov_hoepner"] and v.get("block") == self.sc.hoepner()
                and not self.sc.is_box(v["area"]))

    def _has_artillery(self, state: State, tok: str) -> bool:
        """10.2/10.4: Hoepner fires no artillery, unless the scenario gives it
        him (Typhoon, Last Gasp) or he has left the Road under OR 14.2.
        Zhukov in the Leningrad box has none (14.2)."""
        v = state["tokens"][tok]
        if v.get("block") == self.sc.hoepner():
            return bool(self.sc.sequence.get("hoepner_artillery")) or self._hoepner_on_map(state, tok)
        return not self.sc.is_box(v["area"])

    def _can_act(self, state: State, side: str, tok: str, acted: set[str], hqs: list[str], mode: str) -> None:
        v = state["tokens"].get(tok)
        if v is None or v["side"] != side:
            raise IllegalOrder(f"{tok}: not a {side} block")
        if tok in acted:
            raise IllegalOrder(f"{tok}: one action per block")
        if v.get("cube"):
            raise IllegalOrder(f"{tok}: Isolated blocks cannot act (9.1)")
        if v.get("activated"):
            raise IllegalOrder(f"{tok}: an activated HQ moves only in its activation (AMB-28)")
        acted.add(tok)
        if mode == "ti" and not self._commanded(state, side, tok, hqs):
            raise IllegalOrder(f"{tok}: no activated HQ commands it (10.2)")

    def _commanded(self, state: State, side: str, tok: str, hqs: list[str]) -> bool:
        """Within an activated HQ's Tactical Range along friendly uncontested
        areas (ending anywhere), of its colour or White, or in its area (10.2-10.3)."""
        sc = self.sc
        area = state["tokens"][tok]["area"]
        ident = known(state, tok)
        for hq in hqs:
            h = state["tokens"][hq]
            if h["area"] == area:
                return True
            reach = mx.hq_power(state, side, h["strength"])
            if area not in sc.graph.within(h["area"], reach,
                                           can_pass=lambda a: mx.friendly_uncontested(state, a, side)):
                continue
            hq_colour = sc.spec(h["block"]).colour
            if ident is None or hq_colour == "zhukov" or sc.spec(ident[0]).colour in (hq_colour, "white"):
                return True
            if self.options["or14_1_ignore_army_colour"] and sc.spec(ident[0]).is_combat:
                return True
        return False

    # combat (10.11-10.15)
    def _start_combat(self, state: State, side: str, order: Order, artillery: dict[str, list[str]],
                      rng: Rng, events: list[Event], bombers: dict[str, list[dict[str, Any]]] | None = None,
                      mode: str = "si") -> None:
        now = mx.contested_areas(state)
        newly = [a for a in now if a not in state["contested_at_start"]]
        optional = []
        for a in order.get("fight", []):
            if a not in state["contested_at_start"] or a not in now or not tokens_in(state, a, side):
                raise IllegalOrder(f"{a}: no optional battle there")
            if a not in optional:
                optional.append(a)
        queue = [a for a in newly if tokens_in(state, a, side)] + optional
        for a in list(artillery) + list(bombers or {}):
            if a not in queue:
                raise IllegalOrder(f"{a}: artillery and bombers support only a battle fought this impulse")
        for hq in state.pop("road_advance", []):
            self._road_advance(state, hq, rng, events)
        state["combat"] = {"queue": queue, "newly": newly, "artillery": artillery, "air": bombers or {}, "pass": False,
                           "mode": mode, "cleared": [], "blitz": mode != "ti" or "blitz" in order.get("skip", []),
                           "exploit": mode != "ti" or "exploit" in order.get("skip", [])}
        state["phase"] = "battle"
        self._advance(state, rng, events)

    def _advance(self, state: State, rng: Rng, events: list[Event], choice: str | None = None) -> None:
        while state["phase"] == "battle":
            combat = state["combat"]
            if combat.get("battle"):
                if mx.run_battle(state, self.sc, rng, events, choice):
                    return                  # a side chooses among tied blocks
                choice = None
                self._battle_done(state, combat.pop("battle"))
                combat["queue"].pop(0)
                if self._check_victory(state, events):
                    return
                continue
            queue = combat["queue"]
            if not queue:
                self._after_battles(state, rng, events)
                return
            area = queue[0]
            if not tokens_in(state, area, state["active"]) or not contested(state, area):
                queue.pop(0)
                continue
            if any(not state["tokens"][t]["revealed"] for t in tokens_in(state, area)):
                return                      # the showdown waits for a reveal
            combat["battle"] = mx.open_battle(state, self.sc, area, events)

    def _road_hq(self) -> str | None:
        """The HQ that starts on the Road (Hoepner)."""
        start = self.sc.road[0] if self.sc.road else None
        return next((p["block"] for p in self.sc.placements if p.get("area") == start and "block" in p), None)

    def _road_advance(self, state: State, hq: str, rng: Rng, events: list[Event]) -> None:
        """10.9: Hoepner rolls his weather-adjusted strength in double-fire
        dice; each hit advances him one box, no further than the number of
        blocks with him (at most three), and they all go along.  Passing
        Shlisselburg takes it at once (13.3.1, AMB-20)."""
        sc = self.sc
        v = state["tokens"][hq]
        here = v["area"]
        dice = mx.hq_power(state, GERMAN, v["strength"])
        # OR 14.2: Zhukov in the Leningrad box cuts the 4th Panzer Gruppe to single fire
        need = sc.firepower["black" if tokens_in(state, sc.road[-1], SOVIET) else "white"]
        rolls = [rng.roll(6, f"road to Leningrad, {hq}") for _ in range(dice)]
        hits = sum(1 for r in rolls if r >= need)
        company = [t for t in tokens_in(state, here, GERMAN) if t != hq]
        i = sc.road.index(here)
        steps = min(hits, len(company), 3, len(sc.road) - 1 - i)
        for box in sc.road[i + 1:i + 1 + steps]:
            state["control"][box] = GERMAN
            if box == "Shlisselburg" and state["discs"]["shlisselburg"] != GERMAN:
                state["discs"]["shlisselburg"] = GERMAN
                events.append(Event("Shlisselburg falls: the western north border no longer supplies the Soviets", {}))
        dest = sc.road[i + steps]
        for t in [hq] + company:
            state["tokens"][t]["area"] = dest
        events.append(Event(f"Hoepner rolls {rolls}: {hits} hits, advances {steps} box(es) to {dest}",
                            {"rolls": rolls, "to": dest}))

    def _battle_done(self, state: State, battle: dict[str, Any]) -> None:
        """10.16: a Green area cleared by the attacker lets its Fast blocks blitz."""
        if battle.get("cleared") and self.sc.terrain.get(battle["area"]) == "green":
            state["combat"].setdefault("cleared", []).append(battle["area"])

    def _after_battles(self, state: State, rng: Rng, events: list[Event]) -> None:
        combat = state["combat"]
        if not combat.get("blitz", True):
            combat["blitz"] = True
            if state["weather"] == "good" and self._blitzers(state):
                state["phase"] = "blitz"
                return
        self._finish_combat(state, rng, events)

    def _blitz_hqs(self, state: State) -> list[str]:
        return [t for t, v in state["tokens"].items() if v.get("activated") and v["side"] == state["active"]
                and v.get("revealed") and (self.sc.spec(v["block"]).blitz or self._hoepner_on_map(state, t))
                and v["strength"] > 0 and not self.sc.is_box(v["area"])]

    def _blitzers(self, state: State) -> list[str]:
        """Fast Combat Blocks that fought in a cleared Green area and are
        within range of an activated Blitz HQ that commands them (10.16)."""
        side = state["active"]
        hqs = self._blitz_hqs(state)
        out = []
        for area in state["combat"].get("cleared", []):
            for tok in tokens_in(state, area, side):
                v = state["tokens"][tok]
                if not v.get("revealed") or v.get("cube"):
                    continue
                spec = self.sc.spec(v["block"])
                if spec.is_combat and spec.speed == "fast" and self._commanded(state, side, tok, hqs):
                    out.append(tok)
        return sorted(out, key=mx.natural)

    def _apply_blitz(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """10.16 (AMB-17): each eligible block moves 1 MP into an adjacent Green
        area uncontested at the start of the segment; enemy units there make a
        mandatory battle, an empty enemy area only changes hands.  A Blitz HQ
        adjacent to such a battle may fire its artillery again."""
        sc = self.sc
        eligible = self._blitzers(state)
        contested_now = set(mx.contested_areas(state))
        moved: set[str] = set()
        origins: dict[str, set[str]] = {}
        for mv in order.get("moves", []):
            tok, path = mv["token"], list(mv.get("path", []))
            if tok not in eligible or tok in moved:
                raise IllegalOrder(f"{tok}: not eligible to blitz (10.16)")
            if len(path) != 1 or not sc.graph.adjacent(state["tokens"][tok]["area"], path[0]):
                raise IllegalOrder(f"{tok}: a Blitz is one move into an adjacent area")
            dest = path[0]
            origins.setdefault(dest, set()).add(state["tokens"][tok]["area"])
            if sc.terrain.get(dest) != "green" or dest in contested_now or sc.is_box(dest):
                raise IllegalOrder(f"{tok}: Blitz only into an uncontested Green area (10.16)")
            if (mx.enter_cost(state, sc, side, dest) or 99) > 1:
                raise IllegalOrder(f"{tok}: a Blitz spends 1 MP")
            mx.do_move(state, sc, side, tok, path)
            mx.check_stacking(state, sc, side, dest, tok)
            moved.add(tok)
            events.append(Event(f"{tok} blitzes into {sc.area_name(dest)}", {"token": tok, "path": path}))
        now = mx.contested_areas(state)
        battles = [a for a in now if a not in contested_now]
        artillery: dict[str, list[str]] = {}
        for hq, area in order.get("artillery", {}).items():
            if hq not in self._blitz_hqs(state) or area not in battles \
                    or not sc.graph.adjacent(state["tokens"][hq]["area"], area):
                raise IllegalOrder(f"{hq}: Blitz artillery comes from an adjacent activated Blitz HQ (10.16)")
            artillery.setdefault(area, []).append(hq)
        stukas = air.check_blitz_stukas(state, sc, order.get("air", []), battles, origins)
        combat = state["combat"]
        combat.update(queue=battles, newly=sorted(set(combat["newly"]) | set(battles)), artillery=artillery,
                      air=stukas, cleared=[], stukas=[])
        state["phase"] = "battle"
        self._advance(state, rng, events)

    def _apply_exploit(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """10.18: spend the disc to move up to LV Fast blocks, HQs included, not
        Isolated, without engaging (AMB-13: they may disengage and may have
        moved already this impulse).  The disc goes to the opponent (AMB-4)."""
        state["combat"]["exploit"] = True
        if order.get("moves"):
            self._check_disc(state, side)
            lv = mx.check_lv_claim(state, self.sc, side, order.get("lv"))
            if len(order["moves"]) > lv:
                raise IllegalOrder(f"an Exploitation moves at most LV = {lv} blocks")
            know = self._knows(state, side, order)
            for mv in order["moves"]:
                ident = known(state, mv["token"])
                if ident is not None and self.sc.spec(ident[0]).speed != "fast":
                    raise IllegalOrder(f"{mv['token']}: only Fast blocks exploit (10.18)")
            for v in state["tokens"].values():
                v["activated"] = False
                v["moved"] = False
            self._acts(state, side, {"moves": order["moves"]}, "pass", know, [], events)
            for mv in order["moves"]:
                if self.sc.is_box(state["tokens"][mv["token"]]["area"]):
                    raise IllegalOrder(f"{mv['token']}: Hoepner does not exploit from the Road (10.9)")
            self._spend_disc(state, side)
            events.append(Event(f"{side} spends the Initiative Disc on an Exploitation Move", {}))
        self._end_impulse(state, rng, events, passed=False)

    def _exploit_due(self, state: State) -> bool:
        side = state["active"]
        allowed = ("good",) if side == GERMAN else ("good", "snow", "blizzard")
        return state["initiative"] == side and state["weather"] in allowed and self._disc_left(state, side)

    def _apply_losses(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        tie = state["combat"]["battle"]["tie"]
        if order.get("token") not in tie:
            raise IllegalOrder(f"the hit goes to one of {', '.join(tie)} (10.14.1)")
        self._advance(state, rng, events, choice=order["token"])

    def _apply_aa(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        b = state["combat"]["battle"]
        if "policy" in order:
            order = air.aa_policy(b, str(order["policy"]))
        dead, back = air.check_aa_result(b, order)
        air.take_aa_result(state, b, dead, back, events)
        b["aa_due"] = False
        self._advance(state, rng, events)

    def _apply_reveal(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        due = self._due_reveals(state, side)
        if sorted(order.get("open") or []) != due:
            where = "set-up" if state["phase"] == "setup" else \
                "showdown in " + ", ".join(self.sc.area_name(a) for a in state["combat"]["queue"])
            raise IllegalOrder(f"the {where} shows {', '.join(due)}")
        for tok in due:
            self._open(state, side, tok, order)
        events.append(Event(f"{side} reveals " + ", ".join(f"{t}={state['tokens'][t]['block']}:"
                                                           f"{state['tokens'][t]['strength']}" for t in due),
                            {"tokens": due}))
        if state["phase"] == "setup":
            self._setup_next(state, rng, events)
        else:
            self._advance(state, rng, events)

    def _open(self, state: State, side: str, tok: str, order: Order) -> None:
        """Make a block public from the order's opening, which every program
        has and the core has checked against the side's committed root (the
        owner's program, which has no opening only in a probe, reads its own
        hidden part)."""
        v = state["tokens"][tok]
        if tok not in (order.get("open") or []):
            raise IllegalOrder(f"{tok}: the order does not show it (open)")
        value = next((o.get("value") for o in order.get("openings") or [] if o.get("handle") == tok), None)
        h = state["hidden"].get(side)
        if value is None and h is not None and tok in h["blocks"]:
            value = h["blocks"][tok]
        if value is None:
            raise IllegalOrder(f"{tok}: the reveal is missing")
        why = self.check_opening(state, side, tok, value)
        if why:
            raise IllegalOrder(f"{tok}: {why}")
        v.update(revealed=True, block=value["block"], strength=value["strength"])

    def _finish_combat(self, state: State, rng: Rng, events: list[Event]) -> None:
        """HQ Deactivation (10.17), then the Isolation Check (9.3)."""
        side = state["active"]
        for tok in sorted(t for t, v in state["tokens"].items() if v.get("activated")):
            v = state["tokens"][tok]
            v["activated"] = False
            mx.reduce_revealed(state, self.sc, tok, events)
            mx.conceal(state, tok)         # 10.17: stood upright again
        supplied = mx.supplied_areas(state, self.sc, side)
        for tok, v in list(state["tokens"].items()):
            if v["side"] == side and v.get("cube") and v["area"] in supplied:
                v["cube"] = False
        doomed = [a for a in state["dl_cube"][side] if a not in supplied and state["dl"].get(a) == side
                  and contested(state, a) and not tokens_in(state, a, side)]
        state["dl_cube"][side] = [a for a in state["dl_cube"][side] if a not in supplied and a not in doomed]
        for a in doomed:
            del state["dl"][a]
            state["dl_pool"][side] += 1
            events.append(Event(f"isolated {side} DL in {self.sc.area_name(a)} is destroyed", {"area": a}))
        for tok in sorted(t for t, v in state["tokens"].items() if v["side"] == side and v.get("cube") and v["revealed"]):
            mx.reduce_revealed(state, self.sc, tok, events, surrender=True)
        if any(v["side"] == side and v.get("cube") and not v["revealed"] for v in state["tokens"].values()):
            state["phase"] = "attrition"
            return
        self._end_impulse(state, rng, events, passed=bool(state["combat"].get("pass")))

    def _apply_attrition(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """9.3: each hidden Isolated block loses a step in secret, or, at its
        minimum, surrenders, shown (its name goes to the OoB box)."""
        due = sorted(t for t, v in state["tokens"].items()
                     if v["side"] == side and v.get("cube") and not v["revealed"])
        gone = list(order.get("open") or [])
        if not set(gone) <= set(due):
            raise IllegalOrder(f"attrition covers {', '.join(due)}: only they may surrender")
        for tok in sorted(gone):
            self._open(state, side, tok, order)
            v = state["tokens"][tok]
            if v["strength"] != self.sc.spec(v["block"]).minimum:
                raise IllegalOrder(f"{tok}: only a block at minimum strength surrenders")
            mx.eliminate(state, self.sc, tok, True, events)
        h = state["hidden"][side]
        steps = [t for t in due if t not in gone]
        if h is not None:
            for tok in steps:
                e = h["blocks"][tok]
                new = step_down(self.sc.spec(e["block"]), e["strength"])
                if new is None:
                    raise IllegalOrder(f"{tok}: at its minimum it surrenders (9.3)")
                e["strength"] = new
        events.append(Event(f"{side}: {len(steps)} isolated blocks lose a step, {len(gone)} surrender", {}))
        self._end_impulse(state, rng, events, passed=bool(state["combat"].get("pass")))

    # ------------------------------------------------------------ the sequence
    def _begin_impulses(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["phase"] = "impulse"
        state["active"] = state["initiative"]
        state["passes"] = 0
        state["impulse"] = 0
        state["german_impulses"] = 0
        self._start_impulse(state, rng, events)

    def _start_impulse(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Weather (German impulses from October, 8.1) and the Supply Check (9.1)."""
        side = state["active"]
        state["impulse"] += 1
        state["phase"] = "impulse"
        if side == GERMAN:
            air.aborted_return(state)       # 10.14.3: aborted bombers fly again
        if side == GERMAN:
            state["german_impulses"] = state.get("german_impulses", 0) + 1
        if side == GERMAN and self._blizzard_due(state):
            state["weather"] = "blizzard"
            events.append(Event("Blizzard: the weather turns to blizzard for the rest of the game (OR 14.5)", {}))
        elif side == GERMAN and state["turn"] >= int(self.sc.sequence["weather_rolls_from_turn"]) \
                and state["weather"] not in ("snow", "blizzard"):
            self._weather(state, rng, events)
        supplied = mx.supplied_areas(state, self.sc, side)
        for v in state["tokens"].values():
            v["moved"] = False
            v["activated"] = False
            if v["side"] == side:
                v["cube"] = v["area"] not in supplied
        state["dl_cube"][side] = sorted(a for a, s in state["dl"].items() if s == side and a not in supplied)
        state["contested_at_start"] = mx.contested_areas(state)

    def _blizzard_due(self, state: State) -> bool:
        """OR 14.5 (AMB-3): from the second German impulse of December the
        weather is Blizzard, whatever it was."""
        month = self.sc.sequence["months"][state["turn"] - 1]
        return (self.options["or14_5_blizzard"] and month == "December" and state["weather"] != "blizzard"
                and state.get("german_impulses", 0) >= 2)

    def _weather(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["wx_impulses"] += 1
        if state["wx_impulses"] == 1:
            state["forecast"] = 0               # the marker goes on "--": no roll
            return
        state["forecast"] = min((state["forecast"] or 0) + 1, int(self.sc.sequence["weather_track_max"]))
        roll = rng.roll(6, f"weather, forecast box {state['forecast']}")
        if roll <= state["forecast"]:
            state["weather"] = "rain" if state["weather"] == "good" else "snow"
            state["forecast"] = 0
            events.append(Event(f"weather roll {roll}: the weather turns to {state['weather']}", {"roll": roll}))
        else:
            events.append(Event(f"weather roll {roll}: no change", {"roll": roll}))

    def _end_impulse(self, state: State, rng: Rng, events: list[Event], passed: bool) -> None:
        # 10.15: only an attacker in an area still contested after its battle
        # stays face up; the Blitz exception ends with the impulse
        for tok in sorted(t for t, v in state["tokens"].items() if v.get("revealed")):
            if not contested(state, state["tokens"][tok]["area"]):
                mx.conceal(state, tok)
        if state["phase"] != "over" and self._check_victory(state, events):
            return
        combat = state["combat"]
        if not combat.get("exploit", True) and state["phase"] != "over":
            combat["exploit"] = True
            if self._exploit_due(state):
                state["phase"] = "exploit"
                return
        state["passes"] = state["passes"] + 1 if passed else 0
        if state["phase"] == "over":
            return
        if state["passes"] >= 2 or state["impulse"] >= int(self.options["impulse_cap"]):
            self._final_phase(state, rng, events)
            return
        state["active"] = other(state["active"])
        self._start_impulse(state, rng, events)

    def _final_phase(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Bombers return (13.1), Operation Crusader (OR 14.8: the German's
        program shows its LW HQs first, a private decision), then the rest."""
        air.destroyed_return(state)
        if self.options["or14_8_crusader"] and self.sc.sequence["months"][state["turn"] - 1] == "November":
            state["phase"] = "crusader"
            return
        self._final_phase_rest(state, rng, events)

    def _final_phase_rest(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Kiev check (13.2), Leningrad (13.3), then the next turn or the end
        of the game."""
        sc = self.sc
        if state["discs"]["kiev"] == SOVIET and all(state["control"][a] == GERMAN for a in sc.special_cities.values()):
            state["discs"]["kiev"] = GERMAN
            self._arrive(state, GERMAN, [b for a in sc.arrivals if a.get("event") == "kiev" for b in a["blocks"]])
            events.append(Event("Kiev falls to the Germans", {}))
            if self._check_victory(state, events):
                return
        last = sc.road[-1] if sc.road_in_play else None
        if last and state["discs"]["leningrad"] == SOVIET and state["control"].get(last) == GERMAN:
            self._leningrad_falls(state, last, events)
            if self._check_victory(state, events):
                return
        state["turn"] += 1
        state["disc_turn"] = {GERMAN: 0, SOVIET: 0}
        if state["turn"] > int(sc.sequence["last_turn"]):
            if sc.victory_rules.get("mode", "campaign") != "campaign":
                self._end(state, "soviet victory: the Germans did not win in time", events)
                return
            g, s = mx.vp(state, sc, GERMAN), mx.vp(state, sc, SOVIET)
            winner = GERMAN if g > s else SOVIET
            self._end(state, f"{winner} marginal victory, {max(g, s)} VP to {min(g, s)}", events)
            return
        for a in sc.arrivals:
            if a.get("turn") == state["turn"]:
                self._arrive(state, a["side"], a["blocks"])
        self._begin_logistics(state, rng, events)

    def _lw_hqs(self, state: State) -> list[str]:
        """The German LW HQ tokens on the map, as this program knows them
        (all of them only where the German's hidden part is held)."""
        return sorted(t for t in state["tokens"] if state["tokens"][t]["side"] == GERMAN
                      and (ident := known(state, t)) is not None and self.sc.spec(ident[0]).type == "lwhq")

    def _lw_hqs_unshown(self, state: State, shown: list[str]) -> list[str]:
        """The LW HQs this program knows of that an answer leaves unshown."""
        return [t for t in self._lw_hqs(state) if t not in shown]

    def _apply_crusader(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """OR 14.8: the Luftwaffe leaves for the Mediterranean for good.  The
        German shows his LW HQs (``open``); every program removes exactly the
        shown tokens, from the core-checked openings, so the public state is
        the same in all of them.  A shown block that is not an LW HQ is
        refused; where the German's hidden part is known (his own program,
        the audit) so is an answer that leaves an LW HQ unshown.  The LW HQs
        are not German losses (no Soviet LV, 7.2.1)."""
        shown = sorted(order.get("open") or [])
        for tok in shown:
            self._open(state, side, tok, order)
            v = state["tokens"][tok]
            if self.sc.spec(v["block"]).type != "lwhq":
                raise IllegalOrder(f"{tok}: {v['block']} is not an LW HQ (OR 14.8: only the LW HQs leave)")
        missed = self._lw_hqs_unshown(state, shown)
        if missed:
            raise IllegalOrder(f"{missed[0]}: an LW HQ not shown (OR 14.8: both LW HQs leave in November's "
                               "Final Phase)")
        gone = [f"{t}={state['tokens'][t]['block']}" for t in shown]
        h = state["hidden"][GERMAN]
        for tok in shown:
            del state["tokens"][tok]
            if h is not None:
                h["blocks"].pop(tok, None)
        state["air"] = {k: {t: 0 for t in air.TYPES} for k in ("ready", "aborted", "destroyed")}
        events.append(Event("Operation Crusader: the Luftwaffe leaves the front"
                            + (f" ({', '.join(gone)})" if gone else ""), {"tokens": shown}))
        state["phase"] = "impulse"
        self._final_phase_rest(state, rng, events)

    def _leningrad_falls(self, state: State, box: str, events: list[Event]) -> None:
        """13.3: permanent; +1 German VP (the disc), no more north-border
        supply, and the 4th Panzer Gruppe leaves the Road for the pool."""
        state["discs"]["leningrad"] = GERMAN
        for tok in tokens_in(state, box, SOVIET):       # AMB-31: Zhukov is destroyed and may be rebuilt
            v = state["tokens"][tok]
            if not v["revealed"]:
                v.update(revealed=True, block=self.sc.zhukov(), strength=0)
            mx.eliminate(state, self.sc, tok, False, events)
        for tok in tokens_in(state, box, GERMAN):
            ident = known(state, tok)
            del state["tokens"][tok]
            state["pool_count"][GERMAN] += 1
            h = state["hidden"][GERMAN]
            if h is not None:
                assert ident is not None    # revealed, or in the German hidden part that h is
                h["blocks"].pop(tok, None)
                h["pool"].append(ident[0])
        # back in the pool, each 'L' block may come again under a new token: a new life (13.3)
        for b, spec in sorted(self.sc.blocks.items()):
            if spec.side == GERMAN and spec.letter == "L":
                state["lives"][b] = state["lives"].get(b, 0) + 1
        events.append(Event("Leningrad falls to the Germans", {}))

    def _begin_logistics(self, state: State, rng: Rng, events: list[Event]) -> None:
        queue = [other(state["initiative"]), state["initiative"]]
        if not state["stalin_alive"]:
            queue.remove(SOVIET)
        state["logistics_queue"] = queue
        state["phase"] = "logistics"
        events.append(Event(f"turn {state['turn']}: Logistics Phase", {"turn": state["turn"]}))

    def _arrive(self, state: State, side: str, blocks: list[str]) -> None:
        state["pool_count"][side] += len(blocks)
        if state["hidden"][side] is not None:
            state["hidden"][side]["pool"].extend(blocks)

    def _check_victory(self, state: State, events: list[Event]) -> bool:
        sc = self.sc
        if state["stalin_alive"] and state["control"][sc.moscow] == GERMAN:
            state["stalin_alive"] = False
            state["leaders"][SOVIET] = 0
            events.append(Event("Moscow falls: Stalin is dead", {}))
        mode = sc.victory_rules.get("mode", "campaign")
        if mode == "moscow" and state["control"][sc.moscow] == GERMAN:
            self._end(state, "german victory: Moscow is taken", events)
            return True
        if mode == "dnieper":
            lines = [sc.victory.get(a, a) for a in sc.victory_rules.get("dl_areas", [])]
            if lines and all(state["dl"].get(a) == GERMAN for a in lines):
                self._end(state, "german victory: German Defensive Lines hold " + " and ".join(
                    sc.area_name(a) for a in lines), events)
                return True
            if all(state["control"][a] == GERMAN for a in sc.special_cities.values()):
                self._end(state, "german victory: Chernigov and Romny are German", events)
                return True
        if mode == "campaign":
            for side in SIDES:
                if mx.vp(state, sc, side) >= int(sc.victory_rules["sudden_death_vp"]):
                    self._end(state, f"{side} decisive victory: every VP held", events)
                    return True
        return False

    def _end(self, state: State, text: str, events: list[Event]) -> None:
        state["phase"] = "over"
        state["result"] = text
        events.append(Event(text, {}))

    # ------------------------------------------------------------- secrets
    def _knows(self, state: State, side: str, order: Order) -> bool:
        """Whether this program checks the secret part: it holds the side's
        hidden state (the owner's program, or the audit)."""
        return state["hidden"][side] is not None

    def fill_secrets(self, state: State, side: str, order: Order, new_salt: Callable[[], bytes]) -> Order:
        """Complete a side's own order before apply, from its hidden part: the
        Logistics Value it spends (7.2.1), the blocks it shows (``open``: the
        HQs a Tactical Impulse activates; the core adds the openings), and
        which blocks build its DLs, moved to the secret part (7.1 H2).  No
        salt and no randomness: the core commits, the secret stream draws."""
        self._check_parts(order)
        self._check_names(state, side, order)
        order = _copy(order)
        spends = order.get("verb") == "si" or (order.get("verb") == "exploit" and order.get("moves")) \
            or (order.get("verb") == "logistics" and order.get("choice") == "activate")
        if spends and "lv" not in order and state["hidden"].get(side) is not None:
            order["lv"] = mx.logistics_value(state, self.sc, side)      # 7.2.1: computed, never typed
        if order.get("dl"):
            order.setdefault("secret", {})["dl"] = order.pop("dl")
            order["dl_in"] = [state["tokens"][t]["area"] for t in order["secret"]["dl"]]
        if order.get("verb") == "ti":
            shown = [a["token"] for a in order.get("activate", []) if not state["tokens"][a["token"]]["revealed"]]
            if shown:
                order["open"] = shown
        return order

    def private_answer(self, state: State, decision: Decision) -> Order:
        """Answer a private decision from the side's own hidden state: the
        blocks a showdown (or a face-up set-up) shows, the isolated blocks
        that surrender, the LW HQs that leave under OR 14.8."""
        side = decision.side
        h = state["hidden"][side]
        if decision.kind == "setup":
            return {"verb": "setup"}
        if h is None:
            raise IllegalOrder(f"{side}'s secrets are not held here")
        if decision.kind == "reveal":
            return {"verb": "reveal", "open": self._due_reveals(state, side)}
        if decision.kind == "crusader":
            return {"verb": "crusader", "open": self._lw_hqs(state)}
        if decision.kind == "attrition":
            gone = [t for t, v in sorted(state["tokens"].items()) if v["side"] == side and v.get("cube")
                    and not v["revealed"] and step_down(self.sc.spec(h["blocks"][t]["block"]),
                                                        h["blocks"][t]["strength"]) is None]
            return {"verb": "attrition", "open": gone} if gone else {"verb": "attrition"}
        raise IllegalOrder(f"{decision.kind} is not a private decision")

    def audit(self, state: State) -> list[str]:
        """With both hidden parts present: every token has its hidden entry,
        no block stands twice, every face-up token agrees with it, pools add
        up."""
        problems: list[str] = []
        for side in SIDES:
            seen: dict[str, str] = {}
            h = state["hidden"][side]
            if h is None:
                problems.append(f"{side}: hidden part absent")
                continue
            if len(h["pool"]) != state["pool_count"][side]:
                problems.append(f"{side}: pool holds {len(h['pool'])}, public count {state['pool_count'][side]}")
            if sorted(h["blocks"]) != sorted(t for t, v in state["tokens"].items() if v["side"] == side):
                problems.append(f"{side}: hidden entries and tokens differ")
            for tok, v in state["tokens"].items():
                e = h["blocks"].get(tok) if v["side"] == side else None
                if e is None:
                    continue
                if e["block"] in seen or e["block"] in h["pool"]:
                    problems.append(f"{tok}: {e['block']} also stands as {seen.get(e['block'], 'pool')}")
                seen[e["block"]] = tok
                if v["revealed"] and (v["block"], v["strength"]) != (e["block"], e["strength"]):
                    problems.append(f"{tok}: public {v['block']}:{v['strength']} differs from hidden")
        return problems

    # ------------------------------------------------------------- the rest
    def parse(self, text: str, state: State, side: str) -> Order:
        from .notation import parse
        return parse(text)

    def format(self, order: Order) -> str:
        from .notation import format_order
        return format_order(order)

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None:
        """The values each standing order takes (the words of
        :meth:`M41Game.policy_kinds`)."""
        words = value.split()
        if name == "logistics":
            return None if words == ["pause"] else "the only value is 'pause'"
        if name in ("blitz", "exploit"):
            return None if words == ["no"] else "the only value is 'no'"
        if name == "aa":
            if seat != GERMAN:
                return "AA hits on bombers are a German decision (10.12.3)"
            bad = [w for w in words if w not in ("abort", "destroy", "stuka", "he111")]
            if bad or not words or ("abort" in words) == ("destroy" in words):
                return "give 'abort' or 'destroy', optionally with 'stuka' or 'he111' first"
            return None
        if name == "losses":
            types = {s.type for s in self.sc.blocks.values()} | {"hq", "first"}
            known_words = types | set(self.sc.blocks)
            bad = [w for w in words if w not in known_words and not _token_like(w, seat)]
            return f"{bad[0]!r} is not a token, a block id or a block type" if bad else None
        return None

    def standing_answer(self, state: State, decision: Decision, policies: dict[str, Any]) -> Order | None:
        if decision.private:
            return None
        if decision.kind == "logistics" and policies.get("logistics") == "pause":
            return {"verb": "logistics", "choice": "pause"}
        if decision.kind in ("blitz", "exploit") and policies.get(decision.kind) == "no":
            return {"verb": decision.kind}
        if decision.kind == "aa" and policies.get("aa"):
            return {"verb": "aa", "policy": str(policies["aa"])}
        if decision.kind == "losses" and policies.get("losses"):
            return {"verb": "losses", "token": loss_choice(state, self.sc, state["combat"]["battle"]["tie"],
                                                           str(policies["losses"]))}
        return None

    def demo_order(self, state: State, decision: Decision) -> Order:
        """The scripted player's choice (``pbem demo``, automated tests)."""
        from .bot import choose
        return choose(self, state, decision)

    def demo_policies(self, side: str) -> dict[str, str]:
        """The scripted player's standing orders (the choices it would make
        anyway, given once instead of by email)."""
        from .bot import POLICIES
        return dict(POLICIES)

    def query(self, state: State, side: str, text: str) -> str:
        words = text.split()
        if words[:1] == ["lv"]:
            lv = mx.logistics_value(state, self.sc, side)
            return f"{side} Logistics Value: {lv if lv is not None else 'unknown (hidden HQs)'}"
        if words[:1] == ["supply"]:
            return "supplied: " + " ".join(sorted(mx.supplied_areas(state, self.sc, side), key=mx.natural))
        if words[:1] == ["reach"] and len(words) == 2 and words[1] in state["tokens"]:
            tok = words[1]
            ident = known(state, tok)
            mp = mx.allowance(self.sc, self.sc.spec(ident[0]) if ident else None, state)
            reach = self.sc.graph.reachable(state["tokens"][tok]["area"], mp,
                                            lambda a, b: mx.enter_cost(state, self.sc, side, b,
                                                                       mx.may_be_cavalry(state, self.sc, tok)),
                                            can_pass=lambda a: not has_units(state, a, other(side)))
            return " ".join(f"{a}:{c}" for a, c in sorted(reach.items(), key=lambda x: mx.natural(x[0])))
        raise IllegalOrder("queries: lv | supply | reach TOKEN")

    def result(self, state: State) -> str | None:
        return state["result"]

    def view(self, state: State, seat: str | None) -> View:
        from .sitrep import view
        return view(self.sc, state, seat)


class M41Game(BaseGame):
    """Moscow '41 (VentoNuovo Games): blocks with fog of war on an area map."""

    id = "m41"
    title = "Moscow '41"
    sides = (GERMAN, SOVIET)

    def check_scenario(self, data: dict[str, Any]) -> list[str]:
        from .model import check
        return check(data)

    def options(self) -> dict[str, tuple[Any, str]]:
        return dict(OPTIONS)

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A new game's options: the engine options on unless given."""
        full = super().validate_options(options)
        for k in ENGINE_OPTIONS:
            full[k] = options.get(k, True)
        return full

    def policy_kinds(self) -> dict[str, str]:
        return {
            "logistics": "'pause' to take a Logistics Pause every turn without asking",
            "losses": "which of your equal-strength blocks takes a hit (10.14), asked of either side in any battle: "
                      "words ranked first to last, each a token (S07), a block id or a block type (infantry, tank, "
                      "cavalry, motorized, hq); unranked ties go to the lowest token; 'first' = lowest token always. "
                      "The value is public: prefer tokens and types to block ids",
            "blitz": "'no' to let the Blitz Segment go by without asking (10.16)",
            "exploit": "'no' to keep the Initiative Disc after your Tactical Impulses without asking (10.18)",
            "aa": "German: how AA hits on bombers are taken (10.12.3): 'abort' (one hit each) or 'destroy' "
                  "(two hits destroy one), He-111s first unless 'stuka' comes first, e.g. 'destroy stuka'",
        }

    def rules(self, scenario: dict[str, Any], options: dict[str, Any]) -> M41Rules:
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise ScenarioError(f"unknown m41 rule option {sorted(unknown)[0]!r}")
        return M41Rules(load(scenario), options)


def _token_like(word: str, seat: str) -> bool:
    """A token of ``seat``'s, such as G07 or S12, as a standing order names it."""
    return len(word) >= 2 and word[0] == seat[0].upper() and word[1:].isdigit()


def loss_choice(state: State, sc: Scenario, tied: list[str], policy: str) -> str:
    """The tied block a standing loss order picks: the first ranked word that
    matches a block (token, block id or type); else the lowest token.  Only
    public facts are used, since every block in a battle is revealed."""
    words = policy.split()

    def rank(tok: str) -> tuple[int, tuple[int, str]]:
        v = state["tokens"][tok]
        spec = sc.spec(v["block"])
        keys = {tok, v["block"], spec.type, "hq" if spec.is_hq else spec.type}
        hit = [i for i, w in enumerate(words) if w in keys]
        return (hit[0] if hit else len(words), mx.natural(tok))
    return min(tied, key=rank)


def _token(side: str, area: str) -> dict[str, Any]:
    return {"side": side, "area": area, "colour": WOOD[side], "revealed": False,
            "cube": False, "moved": False, "activated": False, "river": False}


def _group_key(p: dict[str, Any]) -> str:
    """A set-up placement's public spot: its side and area, or the limits of
    an owner-chosen area; face-up placements apart."""
    if "choose" in p:
        where = " ".join(["choose", str(p["choose"]), str(p.get("of", "")), ",".join(p.get("areas", []))]).strip()
    else:
        where = str(p["area"])
    return f"{p['side']}|{where}" + ("/up" if p.get("face_up") else "")


def _group_order(key: str) -> tuple[Any, ...]:
    side, where = key.split("|", 1)
    return (side, where.startswith("choose"), mx.natural(where), where)


def _spot_words(p: dict[str, Any]) -> str:
    return _where(p) if "choose" in p else f"area {p['area']}"


def _where(p: dict[str, Any]) -> str:
    """An owner-chosen placement's limits in words."""
    kind = str(p.get("choose"))
    return {"adjacent": f"adjacent to {p.get('of')}", "near": f"in or adjacent to {p.get('of')}",
            "controlled": "a controlled area", "frontline": "a controlled front-line area",
            "list": f"one of {', '.join(p.get('areas', []))}"}.get(kind, kind)


def _placed_strength(spec: Any, placement: dict[str, Any]) -> int:
    s = placement.get("strength")
    if s == "full":
        return spec.max
    if s == "min":
        return spec.minimum if not spec.is_hq else 2
    if isinstance(s, int):
        return s
    return spec.entry_strength()


def _leader(sc: Scenario, side: str) -> str:
    return next(b for b, s in sc.blocks.items() if s.side == side and s.type == "leader")


def _copy(order: Order) -> Order:
    import copy
    return copy.deepcopy(order)


_TABLE_LISTS = ("activate", "moves", "rails", "offroad", "recall", "air", "blocks", "surrender")
_NAME_LISTS = ("dl", "dl_in", "fight", "disband", "reinforce", "dls", "open")
_NAME_TABLES = ("artillery", "place")


def _check_shapes(order: Order) -> None:
    """The parts of an order have the shapes the parser gives them: a
    signed order from a file may hold anything, and must be refused as
    illegal, not crash a check that expects a list of tables."""
    def names(value: Any, what: str) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise IllegalOrder(f"{what}: a list of names expected")

    for key in _TABLE_LISTS:
        value = order.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise IllegalOrder(f"{key}: a list of tables expected")
        for v in value:
            names(v.get("path", []), f"{key} path")
            if not isinstance(v.get("to", ""), str) or not isinstance(v.get("token", ""), str):
                raise IllegalOrder(f"{key}: a token and an area are names")
    for key in _NAME_LISTS:
        names(order.get(key, []), key)
    for key in _NAME_TABLES:
        value = order.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise IllegalOrder(f"{key}: a table of names expected")
    secret = order.get("secret", {})
    if not isinstance(secret, dict) or not all(isinstance(secret.get(k, {}), dict)
                                               for k in ("regenerate", "replace", "assign")):
        raise IllegalOrder("secret part: a table expected")
    names(secret.get("dl", []), "dl")
    draw = order.get("draw", 0)
    if not isinstance(draw, int) or isinstance(draw, bool) or draw < 0:
        raise IllegalOrder("draw: a number of blocks expected")
