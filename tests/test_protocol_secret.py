"""The secret stream vectors of PROTOCOL.md, the hidden-state tree and the
padding of sealed parts (issue 8)."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.protocol import secret
from pbem.protocol.stream import RecordingRng

VECTORS = json.loads((Path(__file__).resolve().parent / "data" / "protocol-vectors.json").read_text())


def test_secret_stream_vectors() -> None:
    v = VECTORS["secret_stream"]
    seed = bytes.fromhex(v["seed"])
    assert secret.seed_commitment(seed) == v["seed_commitment"]
    assert secret.secret_key(seed, bytes.fromhex(v["shared_key"])).hex() == v["key"]
    s = secret.secret_stream(seed, bytes.fromhex(v["shared_key"]))
    assert [str(s.u64()) for _ in range(3)] == v["first_u64"]
    rng = RecordingRng(secret.secret_stream(seed, bytes.fromhex(v["shared_key"])))
    for step in v["sequence"]:
        if step["op"] == "draw":
            cup = list(step["cup"])
            got = [cup.pop(rng.draw(cup, "vector")) for _ in step["results"]]
            assert got == step["results"]
        else:
            assert rng.shuffle(step["items"], "vector") == step["result"]


def test_a_reveal_opens_the_root_and_nothing_else_does() -> None:
    seed = bytes(range(32))
    items = {f"G{i:02d}": {"block": f"B{i}", "strength": i % 4 + 1} for i in range(11)}
    tree = secret.HiddenTree(seed, 3, items)
    assert tree.width == 16
    for handle in items:
        op = tree.opening(handle)
        assert secret.verify_opening(tree.root, op)
        assert not secret.verify_opening(tree.root, dict(op, value={"block": "B99", "strength": 1}))
        assert not secret.verify_opening(tree.root, dict(op, handle="G99"))
        assert not secret.verify_opening(tree.root, dict(op, salt="00" * 16))
    assert not secret.verify_opening(tree.root, {"handle": "G01"})


def test_a_recommit_with_nothing_changed_gives_a_new_root() -> None:
    seed = bytes(32)
    items = {"a": 1, "b": 2}
    assert secret.HiddenTree(seed, 1, items).root != secret.HiddenTree(seed, 2, items).root
    assert secret.HiddenTree(seed, 1, items).root == secret.HiddenTree(seed, 1, items).root


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), st.integers(0, 9), min_size=1, max_size=40),
       st.integers(0, 2**32))
def test_every_item_opens_its_root(items: dict[str, int], epoch: int) -> None:
    tree = secret.HiddenTree(b"\x07" * 32, epoch, items)
    for handle in items:
        assert secret.verify_opening(tree.root, tree.opening(handle))


def test_padding_hides_the_length_within_a_bucket() -> None:
    short = secret.pad(b'{"a":"x"}')
    longer = secret.pad(b'{"a":"' + b"y" * 200 + b'"}')
    assert len(short) == len(longer) == 256
    assert secret.unpad(short) == {"a": "x"}
    assert len(secret.pad(b"x" * 300)) == 1024
