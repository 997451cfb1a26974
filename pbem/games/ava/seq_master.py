"""The multiplayer variant without a Controller (AVA 20): each seat's HQ
cup at the Selection Phase, the Master cup and its draws.

The counts, splits, dummies and windows are :mod:`pbem.games.ava.mastercup`'s.
Secrecy rides on the core's hidden-item service: a seat's HQ cup is that
seat's hidden items (public handles, values ``{chit, turn}``), mixed under
their handles by ``rng.secret(seat)`` before the first draw of the turn and
turned up by the seat's own opening.  A cup's chits travel in the order's
*team* part (``team_secret``), which the core seals to every seat of the
side: each team-mate's program keeps the team's split of the turn in the
team's hidden part (``hidden["team:SIDE"]["cups"]``), refuses at once a cup
holding a chit a partner has already cupped, and checks the whole split
(:func:`mastercup.check_split`, :func:`mastercup.check_dummies`) when the
team's last cup is in.  The other side's programs see only the counts; the
audit checks the split again with everything known.

Frames: ``master`` draws the next Master cup token; ``mdraw`` holds one
draw's chits (a Master chit: one per seat of the side, all drawn before any
acts, 20.2 (1)-(2)), has each turned up, opens the interrupt window after
each, then runs their commands in seat order.
"""
from __future__ import annotations

from math import ceil
from typing import Any

from pbem.game import Decision, Event, IllegalOrder, Rng, State, team_part
from pbem.games.ava import mastercup, seating
from pbem.games.ava.model import AXIS, SIDE_NAME, SIDES, SOVIET
from pbem.games.ava.seqbase import SeqBase

SEALED = "sealed:"
CUP_VERB = "cup"
DUMMY_WORD = "dummy"


def parse_cup(words: list[str], scn: Any, seat: str) -> dict[str, Any] | None:
    """``cup ID ... [dummy ...]``: the chits for the seat's own HQ cup
    (secret); a ``dummy`` is a blank Soviet dummy chit (20.2)."""
    from pbem.games.ava import orders
    if not words or words[0].lower() != CUP_VERB:
        return None
    chosen: list[str] = []
    n = 0
    for w in words[1:]:
        if w.lower() == DUMMY_WORD:
            n += 1
            chosen.append(f"{mastercup.DUMMY}{seat}.{n}")
        else:
            chosen.append(orders.chit(scn, w))
    return {"verb": CUP_VERB, "secret": {"chits": chosen}}


def cup_secret(order: dict[str, Any]) -> Any:
    """A cup's chits: its team part (20.2: the split is sealed to the team),
    or, before the core fills it in, its secret part as parsed."""
    return order.get("team_secret", order.get("secret"))


def check_cup_shape(order: dict[str, Any], scn: Any) -> None:
    secret, count = cup_secret(order), order.get("count")
    if set(order) - {"verb", "secret", "team_secret", "count"}:
        raise IllegalOrder("cup: unknown fields")
    if "secret" in order and "team_secret" in order:
        raise IllegalOrder("cup: the chits go sealed to the team, once")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        raise IllegalOrder("cup: count must be a number")
    if secret is None:
        return
    chosen = secret.get("chits") if isinstance(secret, dict) and set(secret) == {"chits"} else None
    if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
        raise IllegalOrder("cup: the HQ cup is malformed")
    if len(set(chosen)) != len(chosen):
        raise IllegalOrder("cup: a chit is named twice")
    for c in chosen:
        if c not in scn.chits and not c.startswith(mastercup.DUMMY):
            raise IllegalOrder(f"cup: no chit {c!r}")


def format_cup(order: dict[str, Any]) -> str:
    """A sealed cup never shows its chits (the notation may reach a shared log)."""
    if "count" in order:
        return f"cup ({order['count']} sealed)"
    chosen = (cup_secret(order) or {}).get("chits", [])
    return " ".join([CUP_VERB] + [DUMMY_WORD if c.startswith(mastercup.DUMMY) else c for c in chosen])


class MasterMixin(SeqBase):
    """Selection into HQ cups, the Master cup and its draws (20.2)."""

    master_table: dict[int, tuple[int, int]] = dict(mastercup.MASTER_CHITS)

    # ----------------------------------------------------- who holds what
    def team(self, side: str) -> list[str]:
        return seating.seats_of(self.seating, side)

    def hq_pool(self, state: State, side: str) -> list[str]:
        """The side's HQ chits to divide this turn (fixed at the first cup of
        the turn, so later openings are checked against the same list)."""
        picks = state["picks"].get(side)
        if picks is not None:
            return list(picks["from"])
        return mastercup.hq_chits(self.scn, self.profile, state, side, state["turn"])

    def default_cup(self, state: State, seat: str) -> list[str]:
        """The split pbem proposes: each chit to the seat owning its HQ (A49;
        a Panzergruppe's two chits share one HQ, so one seat); Soviet seats
        short of chits made up with dummies (20.2)."""
        side = self.side_of_seat(seat)
        pool = self.hq_pool(state, side)
        split = {s: [c for c in pool if seating.owner_of_chit(self.seating, self.scn, state, c) == s]
                 for s in self.team(side)}
        cupped = self.team_cups(state, side)
        if cupped:
            # The partners' cups, known to this program: what they took is
            # theirs; what they left of theirs (by A49) is proposed here.
            taken = {c for cup in cupped.values() for c in cup}
            split = {s: ([c for c in cupped[s] if not c.startswith(mastercup.DUMMY)] if s in cupped
                         else [c for c in split[s] if c not in taken]) for s in split}
            split[seat] += [c for c in pool if c not in taken and not any(c in v for v in split.values())]
        mine = list(split[seat])
        if side == SOVIET:
            mine += [DUMMY_WORD] * mastercup.dummies_needed(self.team(side), split).get(seat, 0)
        return mine

    # ----------------------------------------------------- Selection (20.2)
    def _cup_seat(self, top: dict[str, Any]) -> str:
        return next(s for s in self.seat_names() if s not in top["done"])

    def ask_cup(self, state: State, top: dict[str, Any]) -> Decision:
        from pbem.games.ava import chits
        from pbem.games.ava.seq_command import selection_options
        turn = state["turn"]
        due = chits.extra_due(self.scn, state, turn)
        if due and not top["done"]:
            opts, hint = selection_options("extra", chits.extra_candidates(self.scn, state), due)
            return Decision(self.seat_of(SOVIET), "extra", f"Turn {turn}: choose {due} more Soviet Army chit(s) to "
                            "make available (18.x)", tuple(opts), hint=hint)
        seat = self._cup_seat(top)
        side = self.side_of_seat(seat)
        pool = self.hq_pool(state, side)
        return Decision(seat, CUP_VERB, f"Turn {turn} (20.2): your HQ cup, as your team agreed, from "
                        f"{', '.join(pool) or 'none'}; the team divides all of them"
                        + (", dummies making up a Soviet cup" if side == SOVIET else ""),
                        (" ".join([CUP_VERB, *self.default_cup(state, seat)]),),
                        hint="cup ID ... [dummy ...]")

    def do_cup(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any],
               events: list[Event]) -> None:
        from pbem.games.ava import chits
        if d.kind == "extra":
            if order["verb"] != "extra":
                raise IllegalOrder("answer extra CHIT (the Soviet Army chit made available)")
            chits.add_extra(self.scn, state, state["turn"], list(order["chits"]))
            events.append(Event(f"Soviet makes {', '.join(order['chits'])} available"))
            return
        if order["verb"] != CUP_VERB:
            raise IllegalOrder("expected your HQ cup: cup ID ... (20.2)")
        seat = d.seat
        side = self.side_of_seat(seat)
        pool = self.hq_pool(state, side)
        secret = cup_secret(order)
        hidden = state["hidden"].get(seat)
        team = state["hidden"].get(team_part(side))
        if secret is None and (hidden is not None or team is not None):
            raise IllegalOrder("an HQ cup carries its chits sealed to the team (cup ID ...)")
        count = len(secret["chits"]) if secret is not None else order.get("count")
        if not isinstance(count, int) or order.get("count") not in (None, count):
            raise IllegalOrder("the HQ cup's count does not match its chits")
        self._check_count(state, top, side, len(pool), count)
        if secret is not None:
            self._check_own_cup(side, pool, list(secret["chits"]))
        if team is not None and secret is not None:
            self._check_team_cup(state, team, side, seat, list(secret["chits"]))
        state["picks"].setdefault(side, {"from": pool})
        handles = [f"{seat}.{state['turn']}.{i}" for i in range(1, count + 1)]
        if secret is not None and hidden is not None:
            hidden["chits"] = {h: [c, state["turn"]] for h, c in zip(handles, secret["chits"])}
        for h in handles:
            state["sealed"][h] = seat
        state.setdefault("hqcups", {})[seat] = [SEALED + h for h in handles]
        state.setdefault("cupcount", {})[seat] = count
        top["done"].append(seat)
        events.append(Event(f"{seat} puts {count} chit(s) in its HQ cup"))
        if len(top["done"]) == len(self.seat_names()):
            self._close_cups(state, top, events)

    def _check_count(self, state: State, top: dict[str, Any], side: str, pool: int, count: int) -> None:
        """The public checks of a cup's size: the Axis team's cups hold all its
        HQ chits; the Soviet cups are all of one size, dummies making up the
        difference (20.2), enough for every Soviet HQ chit."""
        mates = [s for s in self.team(side) if s in top["done"]]
        given = [state["cupcount"][s] for s in mates]
        last = len(mates) == len(self.team(side)) - 1
        who = SIDE_NAME[side]
        if side == AXIS:
            if sum(given) + count > pool or (last and sum(given) + count != pool):
                raise IllegalOrder(f"the {who} HQ cups hold its {pool} HQ chit(s) between them (20.2), "
                                   f"{sum(given)} already cupped")
            return
        if given and count != given[0]:
            raise IllegalOrder(f"every {who} HQ cup holds {given[0]} chit(s), dummies included (20.2)")
        least = ceil(pool / len(self.team(side)))
        if not given and not least <= count <= pool:
            raise IllegalOrder(f"a {who} HQ cup holds {least} to {pool} chits, dummies included (20.2)")

    def team_cups(self, state: State, side: str) -> dict[str, list[str]]:
        """The cups ``side``'s seats have filled this turn, where this
        program knows them (a seat of the side; the audit): {} otherwise."""
        team = state["hidden"].get(team_part(side))
        if team is None or team.get("turn") != state["turn"]:
            return {}
        return {s: list(c) for s, c in team["cups"].items()}

    def _check_team_cup(self, state: State, team: dict[str, Any], side: str, seat: str,
                        chosen: list[str]) -> None:
        """What a team-mate's program checks at once (20.2): no chit a
        partner has already put in his cup this turn; then keeps the cup in
        the team's split, and checks the whole split once the team's last
        cup is in."""
        if team.get("turn") != state["turn"]:
            team.update(turn=state["turn"], cups={})
        for other, cup in team["cups"].items():
            if other == seat:
                raise IllegalOrder(f"{seat} has already filled its HQ cup this turn")
            twice = [c for c in chosen if c in cup and not c.startswith(mastercup.DUMMY)]
            if twice:
                raise IllegalOrder(f"{twice[0]} is already in {other}'s HQ cup (20.2: the team divides its HQ "
                                   "chits, each to one cup)")
            for c in chosen:
                for p in mastercup.pair_of(self.scn, c):
                    if p in cup:
                        raise IllegalOrder(f"the two {self.scn.chits[c].hq} chits go to the same player (20.2): "
                                           f"{p} is in {other}'s cup")
        team["cups"][seat] = list(chosen)
        if set(team["cups"]) == set(self.team(side)):
            self._check_split_of(state, side, team["cups"])

    def _check_split_of(self, state: State, side: str, cups: dict[str, list[str]]) -> None:
        team = self.team(side)
        split = {s: [c for c in cups.get(s, ()) if not c.startswith(mastercup.DUMMY)] for s in team}
        dummies = {s: [c for c in cups.get(s, ()) if c.startswith(mastercup.DUMMY)] for s in team}
        pool = self.hq_pool(state, side)
        mastercup.check_split(self.scn, side, team, pool, split)
        if side == SOVIET:
            mastercup.check_dummies(self.scn, state, team, split, {s: v for s, v in dummies.items() if v})

    def _check_own_cup(self, side: str, pool: list[str], chosen: list[str]) -> None:
        """What the seat's own program can check: the side's HQ chits
        available this turn, a Panzergruppe's two chits together (20.2),
        dummies only in a Soviet cup."""
        for c in chosen:
            if c.startswith(mastercup.DUMMY):
                if side != SOVIET:
                    raise IllegalOrder("only a Soviet HQ cup takes dummy chits (20.2)")
                continue
            mastercup._check_cupped(self.scn, side, pool, c)
            for p in mastercup.pair_of(self.scn, c):
                if p not in chosen:
                    raise IllegalOrder(f"the two {self.scn.chits[c].hq} chits go to the same player (20.2): "
                                       f"add {p}")

    def _close_cups(self, state: State, top: dict[str, Any], events: list[Event]) -> None:
        """Every cup is in: the whole split is checked where every cup is
        known (the audit); the Master cup filled; the interrupts in hand;
        the Surprise Attack after the Turn 1 selection (20.2)."""
        self._check_whole_split(state)
        self.pop(state, top)
        turn = state["turn"]
        teams = {side: len(self.team(side)) for side in SIDES}
        state["cup"] = mastercup.master_cup(self.scn, turn, teams, self.master_table)
        state["hand"][AXIS] = mastercup.interrupts(self.scn, self.profile, state, turn)
        state["turned"] = {}
        state["phase"] = "command"
        self.push(state, "master")
        events.append(Event(f"Turn {turn}: {len(state['cup'])} chits in the Master cup"
                            + (f"; the Axis holds {', '.join(state['hand'][AXIS])}" if state["hand"][AXIS] else "")))
        if turn == 1 and self.scn.params.surprise_attack:
            self.push(state, "surprise")

    def _check_whole_split(self, state: State) -> None:
        """Where every cup of a team is known (its seats' programs check it
        as the last cup goes in; here the audit, which knows each seat's own
        cup too): the split whole, and each seat's committed cup the one it
        told its team."""
        hidden = state["hidden"]
        for side in SIDES:
            team = self.team(side)
            if any(hidden.get(s) is None for s in team):
                continue
            cups = {s: [c for c, _ in hidden[s]["chits"].values()] for s in team}
            told = self.team_cups(state, side)
            for s in team:
                if s in told and sorted(told[s]) != sorted(cups[s]):
                    raise IllegalOrder(f"{s}'s HQ cup is not the one it sealed to its team")
            self._check_split_of(state, side, cups)

    def hq_opening_refusal(self, state: State, seat: str, chit: Any) -> str | None:
        side = self.side_of_seat(seat)
        if not isinstance(chit, str):
            return "not a chit"
        if chit.startswith(mastercup.DUMMY) and side != SOVIET:
            return "only a Soviet HQ cup holds dummy chits (20.2)"
        return mastercup.opening_refusal(self.scn, state, side, seat, chit, self.hq_pool(state, side),
                                         state.get("turned") or {}, self.team(side))

    # ----------------------------------------------------- Master cup draws (20.2)
    def _auto_master(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        state["phase"] = "command"
        if not state["cup"]:
            self.pop(state, top)
            self.push(state, "endcup")
            return True
        if not state["dealt"]:
            self._deal(state, rng)
        token = state["cup"].pop(rng.draw(state["cup"], f"turn {state['turn']} Master cup draw"))
        what, arg = mastercup.drawn(token)
        if what == "chit":
            events.append(Event(f"Master cup: {arg}"))
            self.push(state, "mdraw", draws=[{"seat": None, "token": arg, "chit": arg, "play": arg}],
                      at=0, run=0, passed=[])
            return True
        cups = state.get("hqcups") or {}
        draws = []
        for seat, _ in mastercup.master_draws(self.team(arg), {s: len(cups.get(s, ())) for s in self.team(arg)}):
            t = cups[seat].pop(rng.draw(cups[seat], f"{seat} HQ cup draw"))
            chit = None if t.startswith(SEALED) else t
            draws.append({"seat": seat, "token": t, "chit": chit, "play": chit})
        events.append(Event(f"Master cup: {SIDE_NAME[arg]} Master chit; " + (
            ", ".join(f"{d['seat']} draws {d['chit'] or 'a chit'}" for d in draws) or "every HQ cup is empty")))
        if draws:
            self.push(state, "mdraw", draws=draws, at=0, run=0, passed=[])
        return True

    def _mdraw_window(self, state: State, top: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
        """20.2: after a Reinforcements, Supply Check, OKH, Reserve or HQ chit
        an Axis seat holding Manstein or Guderian may cancel it (A46: each
        with its Panzergruppe's seat); a dummy opens no window."""
        d = top["draws"][top["at"]]
        chit = d["chit"]
        if not mastercup.opens_window(self.scn, chit, dummy=mastercup.is_dummy(self.scn, state, chit)):
            return None
        held = [c for c in state["hand"].get(AXIS, []) if self.kind(c) == "interrupt"]
        for seat, mine in seating.interrupt_holders(self.seating, self.scn, state, held):
            if seat not in top["passed"]:
                return seat, mine
        return None

    def _auto_mdraw(self, state: State, top: dict[str, Any], rng: Rng, events: list[Event]) -> bool:
        draws = top["draws"]
        if top["at"] < len(draws):
            if draws[top["at"]]["chit"] is None or self._mdraw_window(state, top) is not None:
                return False
            top["at"] += 1
            top["passed"] = []
            return True
        if top["run"] > 0:
            self.clear_activation(state)            # the command before has ended
        if top["run"] >= len(draws):
            self.pop(state, top)
            return True
        d = draws[top["run"]]
        top["run"] += 1
        cid = d["play"]
        if cid is None or cid not in self.scn.chits:
            events.append(Event(f"{d['seat']}: a dummy chit, no effect (20.2)"))
            return True
        self.play(state, cid, rng, events)
        return True

    def _ask_mdraw(self, state: State, top: dict[str, Any]) -> Decision:
        d = top["draws"][top["at"]]
        if d["chit"] is None:
            return Decision(d["seat"], "reveal", "reveal the chit drawn from your HQ cup (20.2)", private=True)
        window = self._mdraw_window(state, top)
        assert window is not None
        seat, held = window
        return Decision(seat, "interrupt", f"{d['chit']} was drawn: cancel it with {' or '.join(held)}? (20.2)",
                        tuple(["interrupt no"] + [f"interrupt {c}" for c in held]), policy="interrupt")

    def _do_mdraw(self, state: State, top: dict[str, Any], d: Decision, order: dict[str, Any], rng: Rng,
                  events: list[Event]) -> None:
        from pbem.games.ava import chits
        draw = top["draws"][top["at"]]
        if d.kind == "reveal":
            chit = self.open_token(state, draw["token"], d, order, events)
            draw["chit"] = draw["play"] = chit
            state.setdefault("turned", {})[chit] = draw["seat"]
            return
        if order["verb"] != "interrupt":
            raise IllegalOrder("answer interrupt no or interrupt CHIT")
        window = self._mdraw_window(state, top)
        assert window is not None
        seat, held = window
        cid = order.get("chit")
        if cid is None:
            top["passed"].append(seat)
            return
        chits.check_interrupt(self.scn, held, cid)
        state["hand"][AXIS].remove(cid)
        back = mastercup.returns_to(self.scn, draw["chit"], draw["seat"])
        if back == mastercup.MASTER_CUP:
            state["cup"].append(draw["chit"])
        else:
            state["hqcups"][draw["seat"]].append(draw["chit"])      # face up now
        events.append(Event(f"{cid} cancels {draw['chit']}, which goes back to "
                            f"{'the Master cup' if back == mastercup.MASTER_CUP else draw['seat'] + chr(39) + 's HQ cup'}"))
        draw["play"] = cid
        top["passed"] = []
        top["at"] += 1
