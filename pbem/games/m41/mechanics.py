"""Moscow '41 mechanics that read the state but do not drive the sequence:
who is where, control, supply lines, movement cost, the Logistics Value,
dice counts and the battle itself.

State conventions (see ``rules.py`` for the whole shape): ``state["tokens"]``
maps a public token ("G07", an opaque handle, not the block's identity) to
``{"side", "area", "colour", "revealed", ...}``; a revealed token also
carries ``"block"`` and ``"strength"``.  ``state["hidden"][side]`` is that
side's secret ``{"blocks": {token: {"block", "strength"[, "life"]}}, "pool":
[...]}`` or None in a program that does not hold it.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.game import Event, IllegalOrder, Rng

from .model import GERMAN, SOVIET, SIDES, BlockSpec, Scenario, other, step_down

State = dict[str, Any]


# --- who is where -------------------------------------------------------------

def tokens_in(state: State, area: str, side: str | None = None) -> list[str]:
    return sorted(t for t, v in state["tokens"].items()
                  if v["area"] == area and (side is None or v["side"] == side))


def known(state: State, token: str) -> tuple[str, int] | None:
    """(block, strength) of a token as this program knows it: public when
    revealed, else from its owner's hidden part, else None."""
    t = state["tokens"][token]
    if t.get("revealed"):
        return t["block"], t["strength"]
    h = state["hidden"].get(t["side"])
    if h is not None and token in h["blocks"]:
        e = h["blocks"][token]
        return e["block"], e["strength"]
    return None


def has_units(state: State, area: str, side: str) -> bool:
    """A side holds units in an area: a block or its Defensive Line (a DL is a
    unit, 2.5).  Leaders are not counted (ruling AMB-6)."""
    return bool(tokens_in(state, area, side)) or state["dl"].get(area) == side


def contested(state: State, area: str) -> bool:
    return has_units(state, area, GERMAN) and has_units(state, area, SOVIET)


def contested_areas(state: State) -> list[str]:
    areas = {v["area"] for v in state["tokens"].values()} | set(state["dl"])
    return sorted((a for a in areas if contested(state, a)), key=_natural)


def friendly_uncontested(state: State, area: str, side: str) -> bool:
    return state["control"].get(area) == side and not contested(state, area)


def stacking_limit(sc: Scenario, area: str) -> int:
    if sc.is_box(area):
        return 99
    return sc.terrain_table[sc.terrain[area]]["stacking"]


def stack_count(state: State, sc: Scenario, area: str, side: str) -> int:
    """Blocks of a side in an area; Stalin counts in Moscow (2.7)."""
    n = len(tokens_in(state, area, side))
    if side == SOVIET and area == sc.moscow and state["stalin_alive"]:
        n += 1
    return n


# --- victory points ---------------------------------------------------------------

def vp_holder(state: State, sc: Scenario) -> dict[str, list[str]]:
    held: dict[str, list[str]] = {GERMAN: [], SOVIET: []}
    for name, area in sc.victory.items():
        held[state["control"][area]].append(name)
    for box in sc.victory_boxes:
        held[state["discs"][box.lower()]].append(box)
    return held


def vp(state: State, sc: Scenario, side: str) -> int:
    return len(vp_holder(state, sc)[side])


# --- supply (9.1-9.2) ----------------------------------------------------------------

def sources(state: State, sc: Scenario, side: str) -> list[str]:
    """Active supply sources: the Staging Areas for the Germans; the Soviet map
    borders, less those switched off by the Kiev, Shlisselburg and Leningrad
    discs (AMB-19: Leningrad switches off the whole north border)."""
    if side == GERMAN:
        return list(sc.staging)
    out = list(sc.supply["east"])
    if state.get("options", {}).get("or14_3_moscow_source") and friendly_uncontested(state, sc.moscow, SOVIET):
        out.append(sc.moscow)           # OR 14.3
    if state["discs"]["kiev"] == SOVIET:
        out += sc.supply["south"]
    if state["discs"]["leningrad"] == SOVIET:
        out += sc.supply["blue"]
        if state["discs"]["shlisselburg"] == SOVIET:
            out += sc.supply["lightblue"]
    return out


def supplied_areas(state: State, sc: Scenario, side: str) -> set[str]:
    """Areas from which a side traces a line of communication: through
    friendly uncontested areas to an active source; a line may start in a
    contested area (9.2).  Boxes are always in supply."""
    def passable(a: str) -> bool:
        if sc.is_box(a):
            return False
        if side == SOVIET and sc.terrain.get(a) == "staging":
            return False
        return friendly_uncontested(state, a, side)
    linked = sc.graph.traced(sources(state, sc, side), can_enter=passable,
                             can_start=lambda a: not sc.is_box(a) and contested(state, a))
    return linked | set(sc.boxes)


# --- movement (2.6, 10.8) ---------------------------------------------------------------

def option(state: State, name: str) -> bool:
    return bool(state.get("options", {}).get(name))


def enter_cost(state: State, sc: Scenario, side: str, b: str, cavalry: bool = False) -> int | None:
    """MP to enter area ``b``; None where the side may never go (boxes,
    Staging Areas for the Soviets).  A Blizzard costs what Snow costs (OR
    14.5); with OR 14.6 cavalry pays less in Rain."""
    if sc.is_box(b):
        return None
    terrain = sc.terrain[b]
    if terrain == "staging" and side == SOVIET:
        return None
    weather = "snow" if state["weather"] == "blizzard" else state["weather"]
    if weather == "rain" and cavalry and option(state, "or14_6_cavalry"):
        return int(sc.optional["or14_6_rain_mp"])
    if weather in sc.weather_mp:
        return sc.weather_mp[weather]
    return sc.terrain_table[terrain]["mp"]


def allowance(sc: Scenario, spec: BlockSpec | None, state: State | None = None) -> int:
    """Movement allowance; an unknown (hidden) block is held to the largest
    allowance until the audit (the public check).  OR 14.7 gives the German
    infantry divisions named in the scenario one more MP (still Slow)."""
    if spec is None:
        return max(sc.movement.values())
    if state is not None and option(state, "or14_7_infantry_divisions") \
            and spec.id in sc.optional.get("or14_7_divisions", []):
        return int(sc.optional["or14_7_mp"])
    return sc.movement.get(spec.speed, 0)


def may_be_cavalry(state: State, sc: Scenario, token: str) -> bool:
    """Whether a block may move at the cavalry rate: known cavalry, or a
    hidden block (the blind check allows the cheaper cost; the audit checks)."""
    ident = known(state, token)
    return ident is None or sc.spec(ident[0]).type == "cavalry"


def rail_reach(state: State, sc: Scenario, side: str, start: str) -> set[str]:
    """OR 14.4: the areas a rail move from ``start`` may end in: any distance
    through friendly uncontested map areas, starting in one (no engaging
    nor disengaging); Soviets never use the Staging Areas."""
    def ok(a: str) -> bool:
        if sc.is_box(a) or (side == SOVIET and sc.terrain.get(a) == "staging"):
            return False
        return friendly_uncontested(state, a, side)
    if not ok(start):
        return set()
    return sc.graph.traced([start], can_enter=ok, can_start=lambda a: False) - {start}


def check_path(state: State, sc: Scenario, side: str, token: str, path: list[str], mp: int,
               may_engage: bool) -> int:
    """Check one block's move along ``path`` (areas entered, in order) and
    return its cost.  Entering an area with enemy units ends the move
    (engaging); leaving a contested area costs +1 MP and the first area
    entered must be friendly and uncontested (disengaging, 10.8)."""
    here = state["tokens"][token]["area"]
    spent = 0
    if contested(state, here) and path:
        spent += 1
        if not friendly_uncontested(state, path[0], side):
            raise IllegalOrder(f"{token}: disengaging from {sc.area_name(here)} must enter a friendly uncontested area")
    for i, area in enumerate(path):
        if not sc.graph.adjacent(here, area):
            raise IllegalOrder(f"{token}: {sc.area_name(area)} does not border {sc.area_name(here)}")
        cost = enter_cost(state, sc, side, area, may_be_cavalry(state, sc, token))
        if cost is None:
            raise IllegalOrder(f"{token}: may not enter {sc.area_name(area)}")
        spent += cost
        if has_units(state, area, other(side)):
            if not may_engage:
                raise IllegalOrder(f"{token}: may not engage in {sc.area_name(area)} in this impulse")
            if i != len(path) - 1:
                raise IllegalOrder(f"{token}: must stop on engaging in {sc.area_name(area)}")
        here = area
    if spent > mp:
        raise IllegalOrder(f"{token}: the move costs {spent} MP, allowance {mp}")
    return spent


def do_move(state: State, sc: Scenario, side: str, token: str, path: list[str]) -> None:
    """Carry the block along its path: empty enemy areas change control as it
    passes (2.5); an engaging step across a river leaves a blue cube."""
    here = state["tokens"][token]["area"]
    for area in path:
        if not has_units(state, area, other(side)):
            state["control"][area] = side
        else:
            state["tokens"][token]["river"] = bool(sc.graph.feature(here, area, "river"))
        here = area
    state["tokens"][token]["area"] = here
    state["tokens"][token]["moved"] = True


def check_stacking(state: State, sc: Scenario, side: str, area: str, who: str) -> None:
    if stack_count(state, sc, area, side) > stacking_limit(sc, area):
        raise IllegalOrder(f"{who}: {sc.area_name(area)} would hold more than {stacking_limit(sc, area)} {side} blocks")


# --- Logistics Value (7.2.1) ------------------------------------------------------------------

def lv_base(state: State, sc: Scenario, side: str) -> int:
    """The public terms of the LV: Leader strength, VPs held, and a point per
    ten enemy blocks lost (surrendered Soviets for the Germans, every German
    loss for the Soviets, AMB-26)."""
    kills = state["surrendered"] if side == GERMAN else state["german_lost"]
    return state["leaders"][side] + vp(state, sc, side) + kills // 10


def lv_halved(state: State, sc: Scenario, side: str) -> bool:
    """Rain halves every LV; Snow halves it unless the side holds both Moscow
    and Leningrad (7.2.1.1)."""
    if state["weather"] == "rain":
        return True
    if state["weather"] in ("snow", "blizzard"):
        return not (state["control"][sc.moscow] == side and state["discs"]["leningrad"] == side)
    return False


def lv_from(raw: int, halved: bool) -> int:
    return raw // 2 if halved else raw


def hq_count(state: State, sc: Scenario, side: str) -> int | None:
    """Non-exhausted HQs deployed on the map or in a box; None if this program
    cannot tell (hidden HQs of a side whose secrets it does not hold)."""
    n = 0
    for t, v in state["tokens"].items():
        if v["side"] != side:
            continue
        k = known(state, t)
        if k is None:
            return None
        spec = sc.spec(k[0])
        if spec.is_hq and k[1] > 0:
            n += 1
    return n


def hq_bound(state: State, sc: Scenario, side: str) -> int:
    """The most non-exhausted HQs a side can have, as anyone can see it:
    public tokens count as they are, a hidden token on the map may be an HQ,
    but in the boxes only the HQs the rules put there may stand (Hoepner on
    the Road, 10.9; Zhukov in Leningrad, OR 14.2), and never more than the
    side's HQ blocks (7.2.1)."""
    exact = on_map = in_boxes = 0
    for t, v in state["tokens"].items():
        if v["side"] != side:
            continue
        if v.get("revealed"):
            exact += 1 if sc.spec(v["block"]).is_hq and v["strength"] > 0 else 0
        elif sc.is_box(v["area"]):
            in_boxes += 1
        else:
            on_map += 1
    box_hqs = sum(1 for b, s in sc.blocks.items() if s.side == side and s.is_hq
                  and (s.letter == "L" or b == sc.zhukov()))
    all_hqs = sum(1 for s in sc.blocks.values() if s.side == side and s.is_hq)
    return min(all_hqs, exact + on_map + min(in_boxes, box_hqs))


def logistics_value(state: State, sc: Scenario, side: str) -> int | None:
    hqs = hq_count(state, sc, side)
    if hqs is None:
        return None
    return lv_from(lv_base(state, sc, side) + hqs, lv_halved(state, sc, side))


def check_lv_claim(state: State, sc: Scenario, side: str, claim: Any) -> int:
    """An order that spends the LV states it; the public check bounds it by
    what anyone can see, the owner's program (and the audit) checks it exactly."""
    exact = logistics_value(state, sc, side)
    if claim is None and exact is not None:
        return exact                    # the owner's program computes it (fill_secrets writes it in the order)
    if not isinstance(claim, int) or isinstance(claim, bool) or claim < 0:
        raise IllegalOrder("the order lacks the Logistics Value its owner's program states (7.2.1)")
    if exact is not None:
        if claim != exact:
            raise IllegalOrder(f"the {side} Logistics Value is {exact}, not {claim}")
        return claim
    halved = lv_halved(state, sc, side)
    lo = lv_from(lv_base(state, sc, side), halved)
    hi = lv_from(lv_base(state, sc, side) + hq_bound(state, sc, side), halved)
    if not lo <= claim <= hi:
        raise IllegalOrder(f"a {side} Logistics Value of {claim} is impossible here ({lo}..{hi})")
    return claim


# --- dice (3.1, 8, 10.12) -----------------------------------------------------------------

def halve(n: int) -> int:
    """Halve, rounding down, but never below one die (3.1)."""
    return max(1, n // 2)


def quarter(n: int) -> int:
    """A quarter, rounded down, never below one die (3.1, OR 14.5)."""
    return max(1, n // 4)


def snowproof(state: State, sc: Scenario, block: str | None) -> bool:
    """OR 14.7: the Azul Division (as named in the scenario) ignores Snow."""
    return bool(block) and option(state, "or14_7_infantry_divisions") \
        and block in sc.optional.get("or14_7_snowproof", [])


def attack_dice(state: State, side: str, strength: int, crossed_river: bool, newly: bool,
                sc: Scenario | None = None, block: str | None = None) -> int:
    """Dice of an attacking block: 1 in Rain; German halved in Snow and
    quartered in a Blizzard (OR 14.5; the Azul Division only halved there
    and untouched by Snow, OR 14.7); 1 after a river crossing into a newly
    contested area unless the rivers are frozen."""
    if strength <= 0:
        return 0
    weather = state["weather"]
    if weather == "rain":
        return 1
    if crossed_river and newly and weather not in ("snow", "blizzard"):
        return 1
    proof = sc is not None and snowproof(state, sc, block)
    if weather == "blizzard" and side == GERMAN:
        return halve(strength) if proof else quarter(strength)
    if weather == "snow" and side == GERMAN and not proof:
        return halve(strength)
    return strength


def defence_dice(state: State, sc: Scenario, side: str, strength: int, block: str | None) -> int:
    """Dice of a defending block: its strength, but German blocks are halved
    in a Blizzard (OR 14.5) except the Azul Division (OR 14.7)."""
    if strength <= 0:
        return 0
    if state["weather"] == "blizzard" and side == GERMAN and not snowproof(state, sc, block):
        return halve(strength)
    return strength


def hq_power(state: State, side: str, strength: int) -> int:
    """Weather-adjusted HQ strength for Tactical Range and artillery (8)."""
    if strength <= 0:
        return 0
    if state["weather"] == "rain":
        return 1
    if state["weather"] in ("snow", "blizzard") and side == GERMAN:
        return halve(strength)
    return strength


def roll_hits(rng: Rng, sc: Scenario, dice: int, colour: str, purpose: str) -> tuple[int, list[int]]:
    need = sc.firepower[colour]
    rolls = [rng.roll(6, purpose) for _ in range(dice)]
    return sum(1 for r in rolls if r >= need), rolls


# --- the battle (10.11-10.15) -----------------------------------------------------------------

def absorb_bonus(state: State, sc: Scenario, area: str, defender: str) -> int:
    """Yellow +1 whoever controls it; a defender-controlled City +1 or
    Victory Area +2; the defender's own DL in its controlled area +1; at most
    3 (10.13, AMB-34)."""
    terrain = sc.terrain.get(area, "")
    bonus = sc.terrain_table.get(terrain, {}).get("absorb", 0) if terrain == "yellow" else 0
    if state["control"][area] == defender:
        if terrain == "victory":
            bonus += sc.terrain_table["victory"]["absorb"]
        elif area in sc.cities:
            bonus += 1
        if state["dl"].get(area) == defender:
            bonus += 1
    return min(bonus, sc.limits["absorb_max"])


def strongest(state: State, tokens: list[str]) -> list[str]:
    """The blocks that may take the next hit: the strongest; several when
    they tie, and then their owner chooses among them (10.14, 10.14.1)."""
    live = [t for t in tokens if t in state["tokens"]]
    if not live:
        return []
    best = max(state["tokens"][t]["strength"] for t in live)
    return sorted((t for t in live if state["tokens"][t]["strength"] == best), key=_natural)


def eliminate(state: State, sc: Scenario, token: str, surrendered: bool, events: list[Event]) -> None:
    """Remove a block (its identity is public by now).  German losses are
    permanent and count for the Soviet LV; a Soviet block destroyed in
    battle or exhausted returns to the pool, a surrendered one is gone for
    good and counts for the German LV (9.3, 10.14.3, AMB-26)."""
    t = state["tokens"].pop(token)
    block = t.get("block") or "?"
    side = t["side"]
    if side == GERMAN:
        state["german_lost"] += 1
        state["eliminated"][GERMAN].append(block)
    elif surrendered:
        state["surrendered"] += 1
        state["eliminated"][SOVIET].append(block)
    else:
        state["pool_count"][SOVIET] += 1
        # back in the pool it may come again under a new token: a new life of the block
        state.setdefault("lives", {})[block] = state.get("lives", {}).get(block, 0) + 1
        h = state["hidden"].get(SOVIET)
        if h is not None:
            h["pool"].append(block)
    h = state["hidden"].get(side)
    if h is not None:
        h["blocks"].pop(token, None)
    events.append(Event(f"{token} ({block}) {'surrenders' if surrendered else 'is eliminated'}",
                        {"token": token, "block": block, "surrendered": surrendered}))


# --- concealment (10.15, 10.17) -------------------------------------------------------------------

def remember(state: State, token: str) -> None:
    """The opponent's own program notes what it last saw of a face-up block
    (identity, strength, when), in its own hidden part: the public state
    keeps nothing once the block is concealed (1.5, 10.15)."""
    v = state["tokens"][token]
    mind = state["hidden"].get(other(v["side"]))
    if mind is not None and v.get("revealed"):
        mind.setdefault("seen", {})[token] = {"block": v["block"], "strength": v["strength"],
                                              "turn": state["turn"], "impulse": state["impulse"]}


def conceal(state: State, token: str) -> None:
    """Stand a face-up block upright again (10.15, 10.17): its public entry
    keeps neither identity nor strength; its owner's hidden part still has
    both, and the core re-commits them with fresh salts after the exchange,
    so nobody else can tell which block it is."""
    v = state["tokens"].get(token)
    if v is None or not v.get("revealed"):
        return
    remember(state, token)
    h = state["hidden"].get(v["side"])
    if h is not None and token in h["blocks"]:
        h["blocks"][token]["strength"] = v["strength"]
    v["revealed"] = False
    for key in ("block", "strength"):
        v.pop(key, None)


def conceal_after_battle(state: State, sc: Scenario, area: str) -> None:
    """10.15: a battle lasts one round.  When one side has no units left there,
    the other side's blocks are concealed, but attacking Fast combat blocks
    that cleared a Green area stay face up (they may Blitz; concealed when
    the impulse ends).  When the area is still contested the attackers stay
    face up and the defenders are concealed."""
    att = state["active"]
    df = other(att)
    if has_units(state, area, att) and has_units(state, area, df):
        hide = tokens_in(state, area, df)
    elif has_units(state, area, df):
        hide = tokens_in(state, area, df)
    else:
        green = sc.terrain.get(area) == "green"
        hide = [t for t in tokens_in(state, area, att)
                if not (green and sc.spec(state["tokens"][t]["block"]).is_combat
                        and sc.spec(state["tokens"][t]["block"]).speed == "fast")]
    for t in hide:
        conceal(state, t)


def reduce_revealed(state: State, sc: Scenario, token: str, events: list[Event], surrender: bool = False) -> None:
    """A revealed block loses a step in public."""
    t = state["tokens"][token]
    new = step_down(sc.spec(t["block"]), t["strength"])
    if new is None:
        eliminate(state, sc, token, surrender, events)
        return
    t["strength"] = new
    h = state["hidden"].get(t["side"])
    if h is not None and token in h["blocks"]:
        h["blocks"][token]["strength"] = new


def open_battle(state: State, sc: Scenario, area: str, events: list[Event]) -> dict[str, Any]:
    """Set up one battle (10.12) once every block in it is public: the
    Absorb Bonus, the firing steps in order (artillery, then ground fire,
    the defender first unless under Tank Attack).  The battle runs with
    :func:`run_battle` and may stop when a side must choose among tied
    blocks."""
    att = state["active"]
    df = other(att)
    newly = area in state["combat"]["newly"]
    name = sc.area_name(area)
    absorb = absorb_bonus(state, sc, area, df)
    events.append(Event(f"battle in {name}: {att} attacks, absorb {absorb}", {"area": area, "absorb": absorb}))

    steps: list[dict[str, Any]] = [{"kind": "artillery", "hq": hq} for hq in state["combat"]["artillery"].get(area, [])]
    bombers = state["combat"].get("air", {}).get(area, [])
    if bombers:
        steps += [{"kind": "aa"}, {"kind": "air"}]
    # 10.12.5.2: who fires first is settled after the Airstrike, so it waits
    # until the artillery and the bombers have fired
    steps.append({"kind": "ground"})
    return {"area": area, "absorb": absorb, "newly": newly, "steps": steps, "i": 0, "hits": None, "tie": None,
            "bombers": bombers}


def tank_attack(state: State, sc: Scenario, area: str, newly: bool) -> bool:
    """The defender is under Tank Attack (10.12.5.2), judged after the
    Airstrike: Good weather, a Green area, no defending DL or defender-held
    City, an attacking Tank and no defending one; not when the area is newly
    contested and every attacking Tank engaged across a river."""
    att = state["active"]
    df = other(att)

    def tanks(side: str) -> list[str]:
        return [t for t in tokens_in(state, area, side) if sc.spec(state["tokens"][t]["block"]).type == "tank"]

    return (state["weather"] == "good" and sc.terrain.get(area) == "green"
            and state["dl"].get(area) != df
            and not (area in sc.cities and state["control"][area] == df)
            and bool(tanks(att)) and not tanks(df)
            and not (newly and all(state["tokens"][t].get("river") for t in tanks(att))))


def run_battle(state: State, sc: Scenario, rng: Rng, events: list[Event], choice: str | None = None) -> str | None:
    """Carry the current battle (``state["combat"]["battle"]``) on.  Returns
    the side that must choose which of its tied blocks takes the next hit
    (its options in ``battle["tie"]``), or None when the battle is over.
    ``choice`` answers that question when resuming."""
    b = state["combat"]["battle"]
    while True:
        if b.get("aa_due"):
            return GERMAN                   # the German splits the AA hits (10.12.3)
        if b["hits"] is not None:
            waiting = _apply_hits(state, sc, b, events, choice)
            choice = None
            if waiting:
                return waiting
            b["i"] += 1
            b["hits"] = None
        if b["i"] >= len(b["steps"]):
            _close_battle(state, sc, b, events)
            return None
        step = b["steps"][b["i"]]
        if step["kind"] == "ground":
            att = state["active"]
            first = [att, other(att)] if tank_attack(state, sc, b["area"], b["newly"]) else [other(att), att]
            if first[0] == att:
                events.append(Event(f"tank attack in {sc.area_name(b['area'])}: the attacker fires first",
                                    {"area": b["area"]}))
            b["steps"][b["i"]:b["i"] + 1] = [{"kind": "fire", "side": s} for s in first]
            continue
        if step["kind"] == "aa":
            from .air import aa_fire
            b["i"] += 1
            b["aa_hits"] = aa_fire(state, sc, b["area"], rng, events)
            b["aa_due"] = b["aa_hits"] > 0
            continue
        target, n = _fire(state, sc, b, step, rng, events)
        b["hits"] = {"side": target, "n": n}


def _fire(state: State, sc: Scenario, b: dict[str, Any], step: dict[str, Any], rng: Rng,
          events: list[Event]) -> tuple[str, int]:
    """Roll one firing step; returns the side hit and the number of hits."""
    att = state["active"]
    df = other(att)
    area = b["area"]
    name = sc.area_name(area)
    if step["kind"] == "artillery":
        hq = step["hq"]
        if hq not in state["tokens"]:
            return df, 0
        dice = hq_power(state, att, state["tokens"][hq]["strength"])
        hits, rolls = roll_hits(rng, sc, dice, "white", f"artillery {name}, {hq}")
        events.append(Event(f"artillery {hq} rolls {rolls}: {hits} hits", {"rolls": rolls}))
        return df, hits
    if step["kind"] == "air":
        from .air import airstrike
        return df, airstrike(state, sc, b, rng, events)
    side = step["side"]
    hits = 0
    all_rolls: list[int] = []
    for t in tokens_in(state, area, side):
        v = state["tokens"][t]
        spec = sc.spec(v["block"])
        colour = spec.fire(v["strength"])
        if colour is None:
            continue
        if side == att:
            if v.get("cube"):
                continue       # 9.1: Isolated blocks do not attack
            dice = attack_dice(state, side, v["strength"], bool(v.get("river")), b["newly"], sc, v["block"])
            if v.get("river") and b["newly"] and state["weather"] in ("good",) and v["strength"] > 1:
                events.append(Event(f"{t} engaged across a river into newly contested {name}: 1 die, not "
                                    f"{attack_dice(state, side, v['strength'], False, False, sc, v['block'])} "
                                    "(10.12.5.1)", {"token": t, "river": True}))
        else:
            dice = defence_dice(state, sc, side, v["strength"], v["block"])
        h, rolls = roll_hits(rng, sc, dice, colour, f"{side} fire {name}, {t}")
        hits += h
        all_rolls += rolls
    if side == df and state["dl"].get(area) == df:
        h, rolls = roll_hits(rng, sc, 1, "black", f"{side} fire {name}, DL")
        hits += h
        all_rolls += rolls
    events.append(Event(f"{side} fires in {name}: {all_rolls} -> {hits} hits", {"side": side, "rolls": all_rolls}))
    return (att if side == df else df), hits


def _apply_hits(state: State, sc: Scenario, b: dict[str, Any], events: list[Event], choice: str | None) -> str | None:
    """Hits one at a time (10.14): the defender's first go to the Absorb
    Bonus, then its DL; then the strongest block.  Stop when blocks tie and
    no choice is given; excess hits are lost (10.14.2)."""
    area = b["area"]
    side = b["hits"]["side"]
    defending = side != state["active"]
    while b["hits"]["n"] > 0:
        if defending and b["absorb"] > 0:
            b["absorb"] -= 1
        elif defending and state["dl"].get(area) == side:
            del state["dl"][area]
            state["dl_pool"][side] += 1
            events.append(Event(f"{side} DL in {sc.area_name(area)} destroyed", {"area": area}))
        else:
            tied = strongest(state, tokens_in(state, area, side))
            if not tied:
                b["hits"]["n"] = 0
                break
            if len(tied) > 1 and choice not in tied:
                if tie_matters(state, sc, tokens_in(state, area, side), b["hits"]["n"]):
                    b["tie"] = tied
                    return side
                choice = tied[0]        # every answer leads to the same losses: nobody is asked
            victim = choice if len(tied) > 1 else tied[0]
            assert victim is not None       # several tied: choice is one of them (given, or tied[0] above)
            choice = None
            b["tie"] = None
            reduce_revealed(state, sc, victim, events)
        b["hits"]["n"] -= 1
    b["tie"] = None
    return None


def tie_matters(state: State, sc: Scenario, tokens: list[str], hits: int) -> bool:
    """Whether the owner's pick among tied blocks (10.14.1) can change how
    ``hits`` hits end on his blocks: every block's final strength is worked
    out for each pick and the answers followed by every later pick.  When
    every pick leaves the same possible outcomes (every tied block dies
    anyway, say) the question is not asked: under sealed dice it would cost
    an email for nothing."""
    from functools import lru_cache

    specs = {t: sc.spec(state["tokens"][t]["block"]) for t in tokens}

    def hit(now: tuple[tuple[str, int | None], ...], tok: str) -> tuple[tuple[str, int | None], ...]:
        # tok is one of ties(now): a block still alive (its strength not None)
        return tuple((t, step_down(specs[t], s) if t == tok and s is not None else s) for t, s in now)

    def ties(now: tuple[tuple[str, int | None], ...]) -> list[str]:
        live = [(t, s) for t, s in now if s is not None]
        best = max((s for _, s in live), default=None)
        return [t for t, s in live if s == best]

    @lru_cache(maxsize=None)
    def ends(now: tuple[tuple[str, int | None], ...], n: int) -> frozenset[tuple[tuple[str, int | None], ...]]:
        tied = ties(now)
        if n == 0 or not tied:
            return frozenset([now])
        return frozenset().union(*(ends(hit(now, t), n - 1) for t in tied))

    start = tuple((t, state["tokens"][t]["strength"]) for t in sorted(tokens))
    answers = {ends(hit(start, t), hits - 1) for t in ties(start)}
    return len(answers) > 1


def _close_battle(state: State, sc: Scenario, b: dict[str, Any], events: list[Event]) -> None:
    att = state["active"]
    df = other(att)
    area = b["area"]
    for t in tokens_in(state, area):
        state["tokens"][t]["river"] = False
    if not has_units(state, area, df) and has_units(state, area, att):
        state["control"][area] = att
        events.append(Event(f"{att} takes {sc.area_name(area)}", {"area": area}))
        b["cleared"] = True
    conceal_after_battle(state, sc, area)


def _natural(area: str) -> tuple[int, str]:
    digits = "".join(ch for ch in area if ch.isdigit())
    return (int(digits) if digits else 10**9, area)


def replacement_cost(sc: Scenario, spec: BlockSpec, strength: int, steps: int) -> int:
    """Price of raising a combat block by ``steps`` from ``strength``: each
    step costs by the colour of the step restored (7.2.2)."""
    return sum(sc.replacement_cost[spec.steps[strength + i]] for i in range(steps))


def natural(area: str) -> tuple[int, str]:
    return _natural(area)


Pick = Callable[[list[str]], str]
