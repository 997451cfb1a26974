"""`pbem dice` shows its inputs (issue 8, item 9): an independent verifier
recomputes every listed value from the game id, the stream number and the
listed reveals, as docs/FILE-FORMAT.md describes, and a seat's secret draws
are listed only where that seat's seed is known."""
from __future__ import annotations

from pbem import cycle
from pbem.protocol.stream import Stream, stream_key
from enginehelp import table, until_acting


def _recompute(stream: dict) -> list[int]:
    key = stream_key(stream["game_id"], stream["stream"], {s: bytes.fromhex(r) for s, r in stream["keyed_by"].items()})
    s = Stream(key)
    out = []
    for roll in stream["rolls"]:
        assert s.position == roll["pos"]
        if roll["op"] == "draw":
            out.append(s.draw(roll["cup"]))
        elif roll["op"] == "shuffle":
            out.append(s.shuffle(list(range(roll["size"]))))
        else:
            out.append(s.die(int(roll["op"][1:])))
    return out


def test_every_listed_value_recomputes_from_the_listed_inputs() -> None:
    import enginehelp as eh

    gf, sc, ids = eh.start("immediate")
    gf = eh.play_out(gf, sc, ids)
    listing = cycle.dice_listing(cycle.replay(gf, sc))
    assert listing
    for stream in listing:
        assert _recompute(stream) == [r["result"] for r in stream["rolls"]]


def test_secret_draws_are_listed_for_their_owner_only() -> None:
    gf, sc, ids = table("immediate")
    gf = until_acting(gf, sc, ids, "red")
    mine = cycle.dice_listing(cycle.replay(gf, sc, ids["red"]))
    theirs = cycle.dice_listing(cycle.replay(gf, sc, ids["blue"]))
    assert any(s["secret"].get("red") for s in mine)
    assert not any(s["secret"].get("red") for s in theirs)
    assert "A" not in repr([s["secret"] for s in theirs])
