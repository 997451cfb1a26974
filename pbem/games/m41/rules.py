"""Moscow '41: the sequence of play, bound to a scenario (pbem.game.Rules).

The state (plain JSON-like, no floats)::

    scenario, turn, phase ("setup" | "logistics" | "impulse" | "battle" |
    "attrition" | "over"), weather, forecast, wx_impulses, initiative,
    active, passes, impulse, control {area: side}, dl {area: side},
    dl_pool {side: n}, dl_cube [areas], leaders {side: strength},
    stalin_alive, discs {kiev, shlisselburg, leningrad}, pool_count,
    eliminated {side: [blocks]}, surrendered, german_lost, next_token,
    tokens {token: {side, area, colour, revealed, commitment, cube, moved,
    activated, river [, block, strength]}}, setup_slots {token: index},
    setup_done [sides], logistics_queue [sides], contested_at_start,
    combat {queue, newly, artillery}, result, options,
    hidden {side: {"blocks": {token: {block, strength, salt}}, "pool": []} | None}

Fog of war (DESIGN.md "Hidden information"): a token is an opaque slot; its
block and strength live in its owner's hidden part under a public
commitment.  Orders that create or change a secret carry the new values in
``order["secret"]`` and the commitments in ``order["commitments"]``;
:meth:`M41Rules.fill_secrets` writes both from the side's own hidden part and
a salt source, before the engine applies the order.  A program without the
side's secrets applies only the public part; one with them (the owner, or
the audit) checks every rule.
"""
from __future__ import annotations

from pbem.game import BaseGame, BaseRules

import random
from typing import Any, Callable

from pbem.game import Decision, Event, IllegalOrder, Rng, ScenarioError, View
from pbem.game import check_commitment as commit_check, commit

from . import air
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
}


#: the parts each impulse order (or step) may carry; "si A" and "si B" are the two options of 11.0
PARTS: dict[str, frozenset[str]] = {
    "pass": frozenset({"moves", "dl", "rails", "offroad", "recall", "disband"}),
    "ti": frozenset({"activate", "moves", "dl", "artillery", "air", "fight", "skip", "disband"}),
    "si A": frozenset({"moves", "dl", "rails", "offroad", "recall", "fight", "disband"}),
    "si B": frozenset({"reinforce", "zhukov_leningrad", "fight", "disband"}),
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
    "reinforce": ("reinforce", {"pass": "12.0, 5.0: reinforcements come in the Logistics Phase or SI option B",
                                "*": "5.0, 11.0: reinforcements come in the Logistics Phase or SI option B"}),
    "zhukov_leningrad": ("zhukov leningrad", {"*": "OR 14.2: with a reinforcement draw only"}),
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

    # ---------------------------------------------------------------- set-up
    def initial_state(self) -> State:
        sc = self.sc
        tokens: dict[str, dict[str, Any]] = {}
        slots: dict[str, int] = {}
        count = {GERMAN: 0, SOVIET: 0}
        for i, p in enumerate(sc.placements):
            if p.get("block") and sc.spec(p["block"]).type == "leader":
                continue
            side = p["side"]
            count[side] += 1
            tok = f"{PREFIX[side]}{count[side]:02d}"
            tokens[tok] = _token(side, "" if "choose" in p else p["area"])     # owner-chosen: placed at set-up
            slots[tok] = i
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
            "german_lost": int(sc.sequence.get("german_lost", 0)),
            "next_token": dict(count), "tokens": tokens, "setup_slots": slots, "setup_done": [],
            "logistics_queue": [], "contested_at_start": [], "combat": {"queue": [], "newly": [], "artillery": {}},
            "result": None, "options": dict(self.options), "disc_uses": {GERMAN: 0, SOVIET: 0},
            "disc_turn": {GERMAN: 0, SOVIET: 0},
            "air": air.initial(sc),
            "hidden": {GERMAN: None, SOVIET: None},
        }

    # ------------------------------------------------------------- decisions
    def pending(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == "over":
            return None
        if phase == "setup":
            side = [s for s in self.sc.sequence["setup_order"] if s not in state["setup_done"]][0]
            # A player's order, not a private answer: its secret draw and salts
            # are made once, when pushed, and stay fixed for the rest of the
            # exchange (ruling 5.3; the engine re-derives private answers).
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
        side = state["active"]
        opts = ["pass", "ti; activate HQ [AREA...]; move TOK AREA...; dl TOK; art HQ AREA; fight AREA"]
        if state["initiative"] == side:
            opts += ["si A; move TOK AREA...; dl TOK", "si B; reinforce AREA..."]
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
        expected = {"setup": ("setup",), "logistics": ("logistics",), "reveal": ("reveal",), "losses": ("losses",), "aa": ("aa",),
                    "attrition": ("attrition",), "impulse": ("pass", "ti", "si"),
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
        allowed = PARTS.get(verb if verb != "si" else f"si {order.get('option')}")
        if allowed is None:
            return
        for part, (word, why) in PART_RULES.items():
            present = order.get("secret", {}).get(part) if part in ("regenerate", "replace") else order.get(part)
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
        acting += [own(t) for t in order.get("dl", [])]
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
        secret = order.get("secret") or {}
        for key, word in (("regenerate", "regen"), ("replace", "replace")):
            for tok, n in secret.get(key, {}).items():
                own(tok)
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise IllegalOrder(f"{word} {tok}: {n!r} steps: name at least one step (7.2.2)")
        # losses: the token must be one of the tied blocks, checked with the tie (10.14)
        once([r.get("token") for r in order.get("blocks", [])], "token revealed")
        once([r.get("token") for r in order.get("surrender", [])], "token surrendering")
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
        coms = order.get("commitments", {})
        if sorted(coms) != mine:
            raise IllegalOrder(f"set-up must commit every {side} token ({len(mine)}), got {len(coms)}")
        secret = order.get("secret")
        if secret is not None:
            used: set[str] = set()
            for tok in mine:
                e = secret["blocks"].get(tok)
                if e is None:
                    raise IllegalOrder(f"{tok}: no block assigned")
                p = self.sc.placements[state["setup_slots"][tok]]
                spec = self.sc.blocks.get(e["block"])
                if spec is None or spec.side != side or e["block"] in used:
                    raise IllegalOrder(f"{tok}: block {e['block']!r} cannot be placed")
                if "block" in p and p["block"] != e["block"]:
                    raise IllegalOrder(f"{tok}: the scenario places {p['block']} here")
                if "block" not in p and (spec.colour != p["colour"] or spec.type != p["type"]):
                    raise IllegalOrder(f"{tok}: a {p['colour']} {p['type']} icon cannot take {e['block']}")
                if e["block"] in self.sc.pools[side]:
                    raise IllegalOrder(f"{tok}: {e['block']} starts in the pool")
                if e["strength"] != _placed_strength(spec, p):
                    raise IllegalOrder(f"{tok}: {e['block']} enters at {_placed_strength(spec, p)}")
                used.add(e["block"])
            state["hidden"][side] = {"blocks": {}, "pool": list(self.sc.pools[side])}
        self._place_setup(state, side, order, mine, events)
        for tok in mine:
            self._set_commitment(state, side, order, tok, secret is not None)
        self._setup_face_up(state, side, order, mine)
        state["setup_done"].append(side)
        if len(state["setup_done"]) == len(SIDES):
            for a in self.sc.sequence.get("contested_start", []):
                if not (tokens_in(state, a, GERMAN) and has_units(state, a, SOVIET)):
                    raise IllegalOrder(f"{self.sc.area_name(a)} starts contested: it needs units of both sides")
        events.append(Event(f"{side} sets up {len(mine)} blocks", {"side": side}))
        if len(state["setup_done"]) == len(SIDES):
            if self.sc.sequence.get("start_phase") == "logistics":
                self._begin_logistics(state, rng, events)
            else:
                self._begin_impulses(state, rng, events)

    def _place_setup(self, state: State, side: str, order: Order, mine: list[str], events: list[Event]) -> None:
        """Owner-chosen set-up areas (Typhoon, Last Gasp): every token whose
        placement says ``choose`` goes where the order's ``place`` puts it,
        within the placement's limits; DLs that say ``choose`` go where the
        order's ``dls`` list puts them.  Positions are public; stacking holds
        (scenario set-up, no overstacking)."""
        sc = self.sc
        place = dict(order.get("place", {}))
        for tok in mine:
            p = sc.placements[state["setup_slots"][tok]]
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

    def _setup_face_up(self, state: State, side: str, order: Order, mine: list[str]) -> None:
        """Placements marked ``face_up`` (Last Gasp: the German blocks in the
        Soviet-held contested areas) are revealed at once."""
        openings = {r["token"]: r for r in order.get("reveal", [])}
        for tok in mine:
            if self.sc.placements[state["setup_slots"][tok]].get("face_up"):
                self._open(state, tok, openings.get(tok))
                self._take_veil(state, tok, order)

    # logistics (7)
    def _apply_logistics(self, state: State, side: str, order: Order, rng: Rng, events: list[Event]) -> None:
        choice = order.get("choice")
        if choice == "pause":
            state["leaders"][side] = self.sc.spec(_leader(self.sc, side)).max
            events.append(Event(f"{side}: Logistics Pause, leader back to full strength", {"side": side}))
        elif choice == "activate":
            lv = mx.check_lv_claim(state, self.sc, side, order.get("lv"))
            know = self._knows(state, side, order)
            recommit = dict(order.get("commitments", {}))
            new_areas = list(order.get("reinforce", []))
            new_tokens = self._check_reinforce(state, side, new_areas, lv)
            changed = [t for t in recommit if t not in new_tokens]
            for tok in changed:
                v = state["tokens"].get(tok)
                if v is None or v["side"] != side:
                    raise IllegalOrder(f"{tok}: not a {side} block on the map")
                if contested(state, v["area"]) or v.get("cube"):
                    raise IllegalOrder(f"{tok}: engaged or isolated blocks cannot be rebuilt (7.2.2)")
            if know:
                self._check_rebuild(state, side, order, lv, changed)
            for tok in changed:
                self._set_commitment(state, side, order, tok, know)
            if changed:
                # the recommitted tokens are public anyway; what each one gained is not (7.2.2)
                events.append(Event(f"{side} rebuilds {', '.join(sorted(changed, key=mx.natural))} in secret "
                                    "(regeneration and replacement, 7.2.2)", {"tokens": sorted(changed)}))
            self._place_reinforcements(state, side, order, new_areas, new_tokens, know, events)
            state["leaders"][side] = max(0, state["leaders"][side] - 1)
            events.append(Event(f"{side}: Leader Activation, LV {lv}, {len(new_tokens)} reinforcements", {"lv": lv}))
        else:
            raise IllegalOrder("logistics: pause or activate")
        state["logistics_queue"].pop(0)
        if not state["logistics_queue"]:
            self._begin_impulses(state, rng, events)

    def _check_rebuild(self, state: State, side: str, order: Order, lv: int, changed: list[str]) -> None:
        """The owner's side of 7.2.2: HQ steps at 1 point each, combat steps at
        the price of their colour, each pool no larger than the LV."""
        secret = order["secret"]
        regen = secret.get("regenerate", {})
        repl = secret.get("replace", {})
        if sum(regen.values()) > lv:
            raise IllegalOrder(f"regeneration of {sum(regen.values())} steps exceeds the LV of {lv}")
        cost = 0
        for tok in changed:
            block, strength = known(state, tok) or (None, 0)
            spec = self.sc.spec(block)
            new = strength
            if tok in regen:
                if not spec.is_hq:
                    raise IllegalOrder(f"{tok}: only HQs regenerate")
                for _ in range(regen[tok]):
                    new = hq_up(new)
            if tok in repl:
                if not spec.is_combat:
                    raise IllegalOrder(f"{tok}: only combat blocks take replacements")
                if strength + repl[tok] > spec.max:
                    raise IllegalOrder(f"{tok}: above full strength")
                cost += mx.replacement_cost(self.sc, spec, strength, repl[tok])
                new = strength + repl[tok]
            if new > spec.max:
                raise IllegalOrder(f"{tok}: above full strength")
            if secret["blocks"][tok]["strength"] != new or secret["blocks"][tok]["block"] != block:
                raise IllegalOrder(f"{tok}: the secret strength does not follow from the rebuild")
        if cost > lv:
            raise IllegalOrder(f"replacements cost {cost} points, the LV pays {lv}")

    def _check_reinforce(self, state: State, side: str, areas: list[str], lv: int) -> list[str]:
        """Public checks of a deployment (5.0): how many, and where."""
        sc = self.sc
        if len(areas) > min(lv, state["pool_count"][side]):
            raise IllegalOrder(f"at most {min(lv, state['pool_count'][side])} reinforcements")
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
            elif a not in sc.staging and not (sc.road_in_play and a in sc.road and tokens_in(state, a, GERMAN)):
                raise IllegalOrder(f"{a}: German reinforcements enter a Staging Area or Hoepner's box (11.0)")
        n = state["next_token"][side]
        return [f"{PREFIX[side]}{n + i + 1:02d}" for i in range(len(areas))]

    def _zhukov_box(self, state: State) -> str | None:
        """OR 14.2: the Leningrad box, while a drawn Zhukov may still be sent
        there (the Road in play, Leningrad Soviet, Zhukov never recalled)."""
        sc = self.sc
        if not (self.options["or14_2_zhukov_hoepner"] and sc.road_in_play) or state.get("zhukov_recalled"):
            return None
        return sc.road[-1] if state["discs"]["leningrad"] == SOVIET else None

    def _place_reinforcements(self, state: State, side: str, order: Order, areas: list[str], new_tokens: list[str],
                              know: bool, events: list[Event]) -> None:
        sc = self.sc
        for tok, area in zip(new_tokens, areas):
            if tok not in order.get("commitments", {}):
                raise IllegalOrder(f"{tok}: reinforcement without a commitment")
            if know:
                block = order["secret"]["blocks"][tok]["block"]
                pool = state["hidden"][side]["pool"]
                if block not in pool:
                    raise IllegalOrder(f"{tok}: {block} is not in the {side} pool")
                spec = sc.spec(block)
                want = sc.staging_colour
                if side == SOVIET and area == self._zhukov_box(state) and block != sc.zhukov():
                    raise IllegalOrder(f"{tok}: only Zhukov is sent to the Leningrad box (14.2)")
                if side == GERMAN and (spec.letter == "L" and sc.road_in_play) != (area in sc.road):
                    raise IllegalOrder(f"{tok}: 'L' blocks, and only they, join Hoepner on the Road (11.0)")
                if side == GERMAN and area in sc.road and not any((known(state, t) or ("",))[0] == self._road_hq()
                                               for t in tokens_in(state, area, GERMAN)):
                    raise IllegalOrder(f"{tok}: 'L' blocks join Hoepner's own box (11.0, D38)")
                if side == GERMAN and spec.colour in want.values() and want.get(area) != spec.colour:
                    raise IllegalOrder(f"{tok}: a {spec.colour} block enters its own Staging Area")
                if order["secret"]["blocks"][tok]["strength"] != spec.entry_strength():
                    raise IllegalOrder(f"{tok}: {block} enters at {spec.entry_strength()}")
                pool.remove(block)
            state["tokens"][tok] = _token(side, area)
            state["next_token"][side] += 1
            state["pool_count"][side] -= 1
            mx.check_stacking(state, sc, side, area, tok)
            self._set_commitment(state, side, order, tok, know)
            # where the box itself tells which block it is, say why the program put it there
            if side == GERMAN and area in sc.road:
                events.append(Event(f"{tok} joins Hoepner in {area}: a drawn 'L' block enters his box, whatever "
                                    "area was named (5.0, 11.0)", {"token": tok, "area": area}))
            elif side == SOVIET and sc.is_box(area):
                events.append(Event(f"{tok}: Zhukov, drawn, is sent to the {area} box as ordered (OR 14.2)",
                                    {"token": tok, "area": area}))
        if areas:
            events.append(Event(f"{side} deploys reinforcements in {', '.join(areas)}", {"areas": areas}))

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
            areas = list(order.get("reinforce", []))
            if self._action_count(order, "si"):
                raise IllegalOrder("Option B deploys reinforcements only")
            new_tokens = self._check_reinforce(state, side, areas, lv)
            self._place_reinforcements(state, side, order, areas, new_tokens, know, events)
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
        n = sum(len(order.get(k, [])) for k in ("moves", "dl", "rails", "recall"))
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
        openings = {r["token"]: r for r in order.get("reveal", [])}
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
                self._open(state, tok, openings.get(tok))
                self._take_veil(state, tok, order)
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
        for tok in order.get("dl", []):
            self._can_act(state, side, tok, acted, hqs, mode)
            v = state["tokens"][tok]
            area = v["area"]
            if not mx.friendly_uncontested(state, area, side) or area in state["dl"] or sc.is_box(area):
                raise IllegalOrder(f"{tok}: a DL goes in a friendly uncontested area without one (4.1)")
            if state["dl_pool"][side] <= 0:
                raise IllegalOrder(f"{side} has no Defensive Line left")
            ident = known(state, tok)
            if ident is not None:
                spec = sc.spec(ident[0])
                if not spec.is_combat or ident[1] <= spec.minimum:
                    raise IllegalOrder(f"{tok}: only a combat block above minimum strength builds a DL (10.8)")
                if know:
                    e = order["secret"]["blocks"].get(tok, {})
                    if e.get("strength") != ident[1] - 1 or e.get("block") != ident[0]:
                        raise IllegalOrder(f"{tok}: the DL costs exactly one step")
            state["dl"][area] = side
            state["dl_pool"][side] -= 1
            self._set_commitment(state, side, order, tok, know)
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
            raise IllegalOrder(f"{tok}: no rail line through friendly uncontested areas to {sc.area_name(dest)} (14.4)")
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
        if not sc.graph.adjacent(dest, sc.moscow) or not mx.friendly_uncontested(state, dest, SOVIET) \
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
        given = {r["token"]: r for r in order.get("blocks", [])}
        if sorted(given) != due:
            areas = ", ".join(self.sc.area_name(a) for a in state["combat"]["queue"])
            raise IllegalOrder(f"the showdown in {areas} reveals {', '.join(due)}")
        for tok in due:
            self._open(state, tok, given[tok])
            self._take_veil(state, tok, order)
        events.append(Event(f"{side} reveals " + ", ".join(f"{t}={given[t]['block']}:{given[t]['strength']}"
                                                           for t in due), {"tokens": due}))
        self._advance(state, rng, events)

    def _open(self, state: State, tok: str, opening: dict[str, Any] | None) -> None:
        """Check a reveal against the token's commitment and make it public."""
        v = state["tokens"][tok]
        if opening is None:
            raise IllegalOrder(f"{tok}: the reveal is missing")
        item = {"block": opening.get("block"), "strength": opening.get("strength")}
        try:
            salt = bytes.fromhex(opening.get("salt", ""))
        except ValueError:
            salt = b""
        if not commit_check(item, salt, v["commitment"]):
            raise IllegalOrder(f"{tok}: the reveal does not match its commitment")
        if item["block"] not in self.sc.blocks or self.sc.spec(item["block"]).side != v["side"]:
            raise IllegalOrder(f"{tok}: {item['block']!r} is not a {v['side']} block")
        v.update(revealed=True, block=item["block"], strength=item["strength"])

    def _take_veil(self, state: State, tok: str, order: Order) -> None:
        """A revealed block will be concealed again (10.15, 10.17): the
        revealing order carries, for each strength it may then have, a fresh
        commitment (``veil``) whose salts stay in its secret part, so that
        once concealed nobody but its owner can tell which block it is."""
        v = state["tokens"][tok]
        spec = self.sc.spec(v["block"])
        want = sorted(str(s) for s in mx.veil_strengths(spec, v["strength"]))
        veil = (order.get("veil") or {}).get(tok)
        if not isinstance(veil, dict) or sorted(veil) != want or not all(isinstance(c, str) for c in veil.values()):
            raise IllegalOrder(f"{tok}: the reveal lacks the commitments that conceal it again (10.15, 10.17)")
        h = state["hidden"].get(v["side"])
        salts = ((order.get("secret") or {}).get("veil") or {}).get(tok)
        if h is not None and salts is not None:
            for s, com in veil.items():
                if not commit_check({"block": v["block"], "strength": int(s)}, bytes.fromhex(salts.get(s, "")), com):
                    raise IllegalOrder(f"{tok}: a concealment commitment does not match its secret")
            if tok in h["blocks"]:
                h["blocks"][tok]["veil"] = dict(salts)
        v["veil"] = dict(veil)

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
        due = sorted(t for t, v in state["tokens"].items()
                     if v["side"] == side and v.get("cube") and not v["revealed"])
        gone = {r["token"]: r for r in order.get("surrender", [])}
        coms = order.get("commitments", {})
        if sorted(set(gone) | set(coms)) != due or set(gone) & set(coms):
            raise IllegalOrder(f"attrition covers {', '.join(due)}: each surrenders or takes a new commitment")
        know = self._knows(state, side, order)
        for tok in sorted(gone):
            self._open(state, tok, gone[tok])
            v = state["tokens"][tok]
            if v["strength"] != self.sc.spec(v["block"]).minimum:
                raise IllegalOrder(f"{tok}: only a block at minimum strength surrenders")
            mx.eliminate(state, self.sc, tok, True, events)
        for tok in sorted(coms):
            if know:
                block, strength = known(state, tok)
                new = step_down(self.sc.spec(block), strength)
                e = order["secret"]["blocks"][tok]
                if new is None or e["strength"] != new or e["block"] != block:
                    raise IllegalOrder(f"{tok}: attrition takes exactly one step")
            self._set_commitment(state, side, order, tok, know)
        events.append(Event(f"{side}: {len(coms)} isolated blocks lose a step, {len(gone)} surrender", {}))
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
        """Bombers return (13.1), Kiev check (13.2), then the next turn or the
        end of the game."""
        sc = self.sc
        air.destroyed_return(state)
        if self.options["or14_8_crusader"] and sc.sequence["months"][state["turn"] - 1] == "November":
            self._crusader(state, events)
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

    def _crusader(self, state: State, events: list[Event]) -> None:
        """OR 14.8: the Luftwaffe leaves for the Mediterranean for good; the
        LW HQs are not German losses for the Soviet LV."""
        for tok in sorted(state["tokens"]):
            ident = known(state, tok)
            v = state["tokens"][tok]
            if v["side"] == GERMAN and (v.get("block") and self.sc.spec(v["block"]).type == "lwhq"
                                        or ident and self.sc.spec(ident[0]).type == "lwhq"):
                del state["tokens"][tok]
                if state["hidden"][GERMAN] is not None:
                    state["hidden"][GERMAN]["blocks"].pop(tok, None)
        state["air"] = {k: {t: 0 for t in air.TYPES} for k in ("ready", "aborted", "destroyed")}
        events.append(Event("Operation Crusader: the Luftwaffe leaves the front", {}))

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
                h["blocks"].pop(tok, None)
                h["pool"].append(ident[0])
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
        hidden state.  Then the order must carry its secret part."""
        if state["hidden"][side] is None:
            return False
        if "secret" not in order and order.get("commitments"):
            raise IllegalOrder("the order's secret part is missing (fill_secrets)")
        return True

    def _set_commitment(self, state: State, side: str, order: Order, tok: str, know: bool) -> None:
        """A block's secret changed: publish its new commitment and hide it again."""
        com = order.get("commitments", {}).get(tok)
        if not isinstance(com, str):
            raise IllegalOrder(f"{tok}: a new commitment is required")
        v = state["tokens"][tok]
        mx.remember(state, tok)
        v.update(commitment=com, revealed=False)
        for key in ("block", "strength", "veil"):
            v.pop(key, None)
        if know or (order.get("verb") == "setup" and "secret" in order):
            e = order["secret"]["blocks"][tok]
            item = {"block": e["block"], "strength": e["strength"]}
            if not commit_check(item, bytes.fromhex(e["salt"]), com):
                raise IllegalOrder(f"{tok}: the commitment does not match the secret")
            state["hidden"][side]["blocks"][tok] = {"block": e["block"], "strength": e["strength"], "salt": e["salt"]}

    def fill_secrets(self, state: State, side: str, order: Order, salt_source: Callable[[], bytes]) -> Order:
        """Complete a side's own order with its secret part before apply: the
        new block values each order implies, fresh salts (``salt_source``, or
        ``order["secret"]["salts"][token]`` when given) and the public
        commitments.  Also the reveal of HQs a Tactical Impulse activates.
        Hidden random draws (set-up icons, reinforcements) are the owner's
        own: they use ``salt_source`` bytes as their randomness."""
        self._check_parts(order)
        self._check_names(state, side, order)
        order = _copy(order)
        spends = order.get("verb") == "si" or (order.get("verb") == "exploit" and order.get("moves")) \
            or (order.get("verb") == "logistics" and order.get("choice") == "activate")
        if spends and "lv" not in order and state["hidden"].get(side) is not None:
            order["lv"] = mx.logistics_value(state, self.sc, side)      # 7.2.1: computed, never typed
        secret = order.setdefault("secret", {})
        given = secret.get("salts", {})
        plan = self._plan(state, side, order, salt_source)
        blocks = secret.setdefault("blocks", {})
        coms = order.setdefault("commitments", {})
        for tok, (block, strength) in plan.items():
            if tok in given:
                salt = bytes.fromhex(given[tok])
            elif order.get("verb") == "attrition":
                salt = _derived_salt(state["hidden"][side]["blocks"][tok]["salt"], tok, state["impulse"], state["turn"])
            else:
                salt = salt_source()
            blocks[tok] = {"block": block, "strength": strength, "salt": salt.hex()}
            coms[tok] = commit({"block": block, "strength": strength}, salt)
        if not coms:
            order.pop("commitments")
        if order.get("verb") == "setup":
            order["reveal"] = [{"token": t, "block": b["block"], "strength": b["strength"], "salt": b["salt"]}
                               for t, b in sorted(blocks.items())
                               if self.sc.placements[state["setup_slots"][t]].get("face_up")]
            if not order["reveal"]:
                order.pop("reveal")
        if order.get("verb") == "ti":
            h = state["hidden"][side]["blocks"]
            order["reveal"] = [{"token": a["token"], **_opening(h[a["token"]])} for a in order.get("activate", [])
                               if not state["tokens"][a["token"]]["revealed"] and a["token"] in h]
        shown = order.get("blocks", []) if order.get("verb") == "reveal" else order.get("reveal", [])
        for r in shown:
            # 10.15, 10.17: commitments for each strength the block may have
            # when it is concealed again; their salts stay in the secret part
            for s in mx.veil_strengths(self.sc.spec(r["block"]), r["strength"]):
                salt = salt_source()
                secret.setdefault("veil", {}).setdefault(r["token"], {})[str(s)] = salt.hex()
                order.setdefault("veil", {}).setdefault(r["token"], {})[str(s)] = \
                    commit({"block": r["block"], "strength": s}, salt)
        return order

    def _plan(self, state: State, side: str, order: Order, salt_source: Callable[[], bytes]) -> dict[str, tuple[str, int]]:
        sc = self.sc
        verb = order.get("verb")
        hidden = state["hidden"][side]
        plan: dict[str, tuple[str, int]] = {}
        if verb == "setup":
            rnd = random.Random(int.from_bytes(salt_source(), "big"))
            mine = sorted(t for t, v in state["tokens"].items() if v["side"] == side)
            fixed = {sc.placements[state["setup_slots"][t]].get("block") for t in mine}
            free = [b for b, s in sc.blocks.items() if s.side == side and b not in fixed and b not in sc.pools[side]
                    and s.type != "leader" and not any(b in a["blocks"] for a in sc.arrivals)]
            rnd.shuffle(free)
            picks = dict(order.get("secret", {}).get("assign", {}))
            for tok in mine:
                p = sc.placements[state["setup_slots"][tok]]
                if "block" in p:
                    block = p["block"]
                elif tok in picks:          # the owner's choice where the scenario lets him pick
                    block = picks[tok]
                    if not p.get("pick") or block not in free or (sc.spec(block).colour, sc.spec(block).type) \
                            != (p["colour"], p["type"]):
                        raise IllegalOrder(f"{tok}: {block} cannot be picked here")
                    free.remove(block)
                else:
                    block = next((b for b in free if sc.spec(b).colour == p["colour"] and sc.spec(b).type == p["type"]),
                                 None)
                    if block is None:
                        raise IllegalOrder(f"{tok}: no {p['colour']} {p['type']} block left to draw")
                    free.remove(block)
                plan[tok] = (block, _placed_strength(sc.spec(block), p))
            return plan
        if hidden is None:
            return plan
        for tok in order.get("dl", []):
            e = hidden["blocks"][tok]
            plan[tok] = (e["block"], e["strength"] - 1)
        if verb == "attrition":
            for tok, v in state["tokens"].items():
                if v["side"] == side and v.get("cube") and not v["revealed"]:
                    e = hidden["blocks"][tok]
                    new = step_down(sc.spec(e["block"]), e["strength"])
                    if new is not None:
                        plan[tok] = (e["block"], new)
            order["surrender"] = [{"token": t, **_opening(hidden["blocks"][t])} for t, v in sorted(state["tokens"].items())
                                  if v["side"] == side and v.get("cube") and not v["revealed"] and t not in plan]
        if verb == "logistics" and order.get("choice") == "activate":
            secret = order["secret"]
            for tok, n in secret.get("regenerate", {}).items():
                block, s = known(state, tok)
                for _ in range(n):
                    s = hq_up(s)
                plan[tok] = (block, s)
            for tok, n in secret.get("replace", {}).items():
                block, s = known(state, tok)
                plan[tok] = (block, s + n)
        if order.get("reinforce"):
            rnd = random.Random(int.from_bytes(salt_source(), "big"))
            pool = list(hidden["pool"])
            n = state["next_token"][side]
            wanted = list(order["reinforce"])
            placed: list[str] = []
            for i, area in enumerate(wanted):
                if not pool:
                    raise IllegalOrder(f"no block left in the {side} pool for {area}")
                # 5.0: drawn at random from the whole pool; where it enters follows from the block
                block = pool.pop(rnd.randrange(len(pool)))
                if side == GERMAN:
                    area = self._german_entry(state, hidden, block, area, wanted)
                    if area is None:
                        continue            # 5.0 note: it cannot enter, so it stays in the pool
                elif block == sc.zhukov() and order.get("zhukov_leningrad") and self._zhukov_box(state):
                    area = self._zhukov_box(state)      # OR 14.2: Stalin sends him north
                tok = f"{PREFIX[side]}{n + len(placed) + 1:02d}"
                placed.append(area)
                plan[tok] = (block, sc.spec(block).entry_strength())
            order["reinforce"] = placed
        return plan

    def _german_entry(self, state: State, hidden: dict[str, Any], block: str, named: str,
                      named_all: list[str]) -> str | None:
        """Where a drawn German reinforcement enters (5.0, 11.0): an 'L' block
        joins Hoepner's box on the Road (D38), an army-coloured block its own
        Staging Area, any other block the Staging Area its owner named (the
        first one named when this entry named Hoepner's box).  None when it
        has nowhere to go."""
        sc = self.sc
        spec = sc.spec(block)
        if spec.letter == "L" and sc.road_in_play:
            road_hq = self._road_hq()
            return next((v["area"] for t, v in state["tokens"].items() if v["side"] == GERMAN and v["area"] in sc.road
                         and hidden["blocks"].get(t, {}).get("block") == road_hq), None)
        if spec.colour in sc.staging_colour.values():
            return next(a for a, c in sc.staging_colour.items() if c == spec.colour)
        return named if named in sc.staging else next((a for a in named_all if a in sc.staging), sc.staging[0])

    def private_answer(self, state: State, decision: Decision) -> Order:
        """Answer a private decision from the side's own hidden state."""
        side = decision.side
        h = state["hidden"][side]
        if decision.kind == "setup":
            return {"verb": "setup"}
        if h is None:
            raise IllegalOrder(f"{side}'s secrets are not held here")
        if decision.kind == "reveal":
            return {"verb": "reveal", "blocks": [{"token": t, **_opening(h["blocks"][t])}
                                                 for t in self._due_reveals(state, side)]}
        if decision.kind == "attrition":
            return {"verb": "attrition"}
        raise IllegalOrder(f"{decision.kind} is not a private decision")

    def audit(self, state: State) -> list[str]:
        """With both hidden parts present: every commitment opens to the
        hidden value, every revealed token agrees with it, pools add up."""
        problems: list[str] = []
        seen: dict[str, str] = {}
        for side in SIDES:
            h = state["hidden"][side]
            if h is None:
                problems.append(f"{side}: hidden part absent")
                continue
            if len(h["pool"]) != state["pool_count"][side]:
                problems.append(f"{side}: pool holds {len(h['pool'])}, public count {state['pool_count'][side]}")
            for tok, v in state["tokens"].items():
                if v["side"] != side:
                    continue
                e = h["blocks"].get(tok)
                if e is None:
                    problems.append(f"{tok}: no hidden entry")
                    continue
                if e["block"] in seen:
                    problems.append(f"{tok}: {e['block']} also stands as {seen[e['block']]}")
                seen[e["block"]] = tok
                if v["revealed"]:
                    if (v["block"], v["strength"]) != (e["block"], e["strength"]):
                        problems.append(f"{tok}: public {v['block']}:{v['strength']} differs from hidden")
                elif not commit_check({"block": e["block"], "strength": e["strength"]}, bytes.fromhex(e["salt"]),
                                      v["commitment"]):
                    problems.append(f"{tok}: commitment does not open to the hidden value")
        return problems

    # ------------------------------------------------------------- the rest
    def parse(self, text: str, state: State, side: str) -> Order:
        from .notation import parse
        return parse(text)

    def format(self, order: Order) -> str:
        from .notation import format_order
        return format_order(order)

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


def _derived_salt(old_salt: str, tok: str, impulse: int, turn: int) -> bytes:
    """A fresh salt for a private answer that must come out the same each
    time the owner's program derives it: a hash of the token's previous
    (secret) salt, so the opponent still cannot open the commitment."""
    import hashlib
    return hashlib.sha256(f"m41 attrition {tok} {turn} {impulse} {old_salt}".encode()).digest()[:16]


def _opening(entry: dict[str, Any]) -> dict[str, Any]:
    """What a reveal shows of a hidden entry: block, strength and the salt
    that opens its commitment, never the salts kept for concealing it."""
    return {k: entry[k] for k in ("block", "strength", "salt")}


def _token(side: str, area: str) -> dict[str, Any]:
    return {"side": side, "area": area, "colour": WOOD[side], "revealed": False, "commitment": None,
            "cube": False, "moved": False, "activated": False, "river": False}


def _where(p: dict[str, Any]) -> str:
    """An owner-chosen placement's limits in words."""
    kind = p.get("choose")
    return {"adjacent": f"adjacent to {p.get('of')}", "near": f"in or adjacent to {p.get('of')}",
            "controlled": "a controlled area", "frontline": "a controlled front-line area",
            "list": f"one of {', '.join(p.get('areas', []))}"}.get(kind, str(kind))


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
_NAME_LISTS = ("dl", "fight", "disband", "reinforce", "dls")
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
