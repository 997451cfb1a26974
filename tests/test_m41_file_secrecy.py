"""1.5 fog of war, checked on what actually travels: the bytes of every game
file written in a practice campaign (and the turn log mailed with it) name
no block identity that the public state has not shown (search the bytes)."""
from __future__ import annotations

from pbem import cycle
from pbem.session import turn_log
from m41help import PRACTICE, one_exchange, start


def test_1_5_game_files_and_turn_logs_never_name_a_hidden_block() -> None:
    gf, ids = start(dice="sealed")
    sc = PRACTICE
    names = {b["id"]: b.get("name", "") for b in sc["blocks"]} if isinstance(sc.get("blocks"), list) else {}
    shown: set[str] = set()
    for _ in range(16):
        gf, side = one_exchange(gf, sc, ids)
        full = cycle.replay(gf, sc, ids[side])         # the sender's program knows its own blocks
        state = full.state
        for tok, v in state["tokens"].items():
            if v.get("revealed"):
                hidden = (state["hidden"].get(v["side"]) or {}).get("blocks", {}).get(tok)
                if hidden:
                    shown.add(hidden["block"])
        # A block once shown (a showdown, a surrender) stays known by name,
        # even when it later comes back from the pool under a new token.
        for rec in full.records:
            for entry in rec.entries:
                # every block shown travels in an opening the core checked (showdown, HQ
                # activation, surrender, face-up set-up)
                for item in entry["order"].get("openings") or []:
                    shown.add(item["value"]["block"])
        data = gf.to_toml() + turn_log(full, full.records[-1:])
        for s in ("german", "soviet"):
            mine = state["hidden"].get(s)
            if not mine:
                continue
            for tok, secret in mine["blocks"].items():
                block = secret["block"]
                if block in shown:
                    continue
                assert f'"{block}"' not in data and f"={block}" not in data, f"{tok} ({block}) leaks"
                if names.get(block):
                    assert names[block] not in data, f"{tok} leaks its name {names[block]}"
    assert shown, "the campaign opening should have revealed some blocks in battle"
