"""Vault: a two-seat game of our own for the core's hidden-information
service.  Test fixture only.

Each seat holds tiles face down under public handles (red ``r1``..``r8``,
blue ``b1``..``b8``).  At set-up its program deals the four scenario tiles
to ``*1``..``*4`` by a secret shuffle; then the seats take turns, each
doing one of:

* ``boost H``: one of its tiles gains a strength point, in secret (the
  public order does not say which);
* ``draw``: a face-down draw from its reserve pool onto its next free
  handle, from its secret stream;
* ``show H``: a tile is shown (opened) and scores its strength;
* ``pass``.

Tiles are unique (a tile shown under two handles is a cheat); a strength is
1 to 4.  A private standing order ``motto`` (any word) exists only to be
sealed.
"""
from __future__ import annotations

from typing import Any

from pbem.game import BaseGame, BaseRules, Decision, Event, IllegalOrder, ScenarioError

SEATS = ("red", "blue")
MAX_STRENGTH = 4


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


class VaultRules(BaseRules):
    hidden_width = 8
    private_policies = frozenset({"motto"})

    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            v = scenario["vault"]
            self.tiles, self.pool = list(v["tiles"]), list(v["pool"])
            self.rounds, self.first = int(v["rounds"]), str(v["first"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("vault scenario needs [vault] tiles, pool, rounds, first") from None

    # -- state ---------------------------------------------------------------
    def initial_state(self) -> dict[str, Any]:
        return {"round": 1, "turn": self.first, "set_up": [], "held": {s: 0 for s in SEATS},
                "pool_left": {s: len(self.pool) for s in SEATS}, "shown": {s: {} for s in SEATS},
                "score": {s: 0 for s in SEATS}, "over": False,
                "hidden": {s: {"tiles": {}, "pool": list(self.pool)} for s in SEATS}}

    def hidden_items(self, state: dict[str, Any], seat: str) -> dict[str, Any]:
        return dict(state["hidden"][seat]["tiles"])

    def identity_of(self, seat: str, value: Any) -> str | None:
        return str(value.get("tile")) if isinstance(value, dict) else None

    def check_opening(self, state: dict[str, Any], seat: str, handle: str, value: Any) -> str | None:
        if not handle.startswith(seat[0]):
            return f"{handle} is not a handle of {seat}"
        if not isinstance(value, dict) or value.get("tile") not in self.tiles + self.pool:
            return "not a tile of this game"
        if not isinstance(value.get("strength"), int) or not 1 <= value["strength"] <= MAX_STRENGTH:
            return f"strength {value.get('strength')!r} is outside 1..{MAX_STRENGTH}"
        return None

    # -- decisions -----------------------------------------------------------
    def pending(self, st: dict[str, Any]) -> Decision | None:
        if st["over"]:
            return None
        seat = st["turn"]
        if seat not in st["set_up"]:
            return Decision(seat, "setup", f"{seat}: deal your tiles face down", ("setup",))
        handles = [f"{seat[0]}{i}" for i in range(1, st["held"][seat] + 1) if f"{seat[0]}{i}" not in st["shown"][seat]]
        opts = [f"boost {h}" for h in handles] + [f"show {h}" for h in handles] + ["draw", "pass"]
        return Decision(seat, "act", f"{seat}: boost, show, draw or pass", tuple(opts))

    def apply(self, st: dict[str, Any], seat: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.seat != seat:
            raise IllegalOrder(f"not {seat}'s decision")
        verb = order.get("verb")
        mine = st["hidden"][seat]
        if verb == "setup" and d.kind == "setup":
            srng = rng.secret(seat)
            if mine is not None and srng is not None:
                dealt = srng.shuffle(self.tiles, f"{seat} deals its tiles")
                mine["tiles"] = {f"{seat[0]}{i}": {"tile": t, "strength": 1} for i, t in enumerate(dealt, 1)}
            st["set_up"].append(seat)
            st["held"][seat] = len(self.tiles)
            return self._next(st, seat, [Event(f"{seat} deals {len(self.tiles)} tiles face down")])
        if d.kind != "act":
            raise IllegalOrder(f"{seat} must {d.kind}")
        if verb == "boost":
            if mine is not None:
                handle = (order.get("secret") or {}).get("handle")
                tile = mine["tiles"].get(handle)
                if tile is None or handle in st["shown"][seat]:
                    raise IllegalOrder(f"{seat} has no face-down tile {handle!r}")
                if tile["strength"] >= MAX_STRENGTH:
                    raise IllegalOrder(f"{handle} is at full strength")
                tile["strength"] += 1
            return self._next(st, seat, [Event(f"{seat} boosts a tile in secret")])
        if verb == "draw":
            if st["pool_left"][seat] == 0 or st["held"][seat] >= self.hidden_width:
                raise IllegalOrder("nothing left to draw")
            srng = rng.secret(seat)
            handle = f"{seat[0]}{st['held'][seat] + 1}"
            if mine is not None and srng is not None:
                tile = mine["pool"].pop(srng.draw(mine["pool"], f"{seat} draws face down"))
                mine["tiles"][handle] = {"tile": tile, "strength": 1}
            st["pool_left"][seat] -= 1
            st["held"][seat] += 1
            return self._next(st, seat, [Event(f"{seat} draws a tile face down onto {handle}")])
        if verb == "show":
            openings = order.get("openings") or []
            if order.get("open") != [order.get("handle")] or len(openings) != 1:
                raise IllegalOrder("show names one handle and opens it")
            handle, value = openings[0]["handle"], openings[0]["value"]
            if handle in st["shown"][seat] or not handle.startswith(seat[0]) or int(handle[1:]) > st["held"][seat]:
                raise IllegalOrder(f"{handle} cannot be shown")
            st["shown"][seat][handle] = value
            st["score"][seat] += value["strength"]
            return self._next(st, seat, [Event(f"{seat} shows {handle}: {value['tile']} {value['strength']}")])
        if verb == "pass":
            return self._next(st, seat, [])
        raise IllegalOrder(f"cannot read {verb!r}")

    def _next(self, st: dict[str, Any], seat: str, events: list[Event]) -> tuple[dict[str, Any], list[Event]]:
        st["turn"] = other(seat)
        if st["turn"] == self.first:
            st["round"] += 1
            if st["round"] > self.rounds:
                st["over"] = True
        return st, events

    # -- notation ------------------------------------------------------------
    def parse(self, text: str, st: dict[str, Any], seat: str) -> dict[str, Any]:
        words = text.split()
        if words in (["setup"], ["draw"], ["pass"]):
            return {"verb": words[0]}
        if len(words) == 2 and words[0] == "boost":
            return {"verb": "boost", "secret": {"handle": words[1]}}
        if len(words) == 2 and words[0] == "show":
            return {"verb": "show", "handle": words[1], "open": [words[1]]}
        raise IllegalOrder(f"cannot read {text!r}")

    def format(self, order: dict[str, Any]) -> str:
        return " ".join(str(order[k]) for k in ("verb", "handle") if k in order)

    def standing_answer(self, st, d, policies):
        return None

    def private_answer(self, st, d):
        raise IllegalOrder("vault has no private decisions")

    def query(self, st, seat, text):
        return f"score {st['score']}"

    def result(self, st):
        if not st["over"]:
            return None
        r, b = st["score"]["red"], st["score"]["blue"]
        return "draw" if r == b else ("red wins" if r > b else "blue wins")


class VaultGame(BaseGame):
    id = "vault"
    title = "Vault (hidden-items protocol test game)"
    sides = SEATS

    def check_scenario(self, data):
        return [] if "vault" in data else ["vault: the [vault] table is missing"]

    def policy_kinds(self):
        return {"motto": "any word: sealed to its owner, to test sealing"}

    def rules(self, scenario, options):
        return VaultRules(scenario, options)


GAME = VaultGame()
