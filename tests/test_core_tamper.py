"""Byte-level tampering: no altered game file is taken for a different game.

DESIGN.md, "The game file": signatures cover the canonical form of each
exchange, never the raw bytes, so a mutant file is one of two things: refused
with one line (a :class:`PbemError`), or the very same game after
canonicalisation (a byte in a comment, a space for a tab): the same exchange
hashes and the same public state.  And the canonical form is why CRLF
conversion, re-indentation and a byte-order mark do not break a file.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import enginehelp as eh
from pbem import cycle, session
from pbem.errors import PbemError
from pbem.protocol.gamefile import GameFile
from pbem.protocol.canon import canonical

SCENARIO_FILE = str(eh.DATA / "scenarios" / "duel" / "test.toml")
SAMPLE = 2000


@pytest.fixture(scope="module")
def signed() -> tuple[bytes, list[str], bytes]:
    """A sealed duel game of six exchanges (the last one resolving a
    deferred roll), written as the program writes it, with its exchange
    hashes and canonical public state."""
    gf, sc, ids = eh.start("sealed")
    for _ in range(4):
        gf = eh.one_exchange(gf, sc, ids)
    m = cycle.replay(gf, sc)
    assert m.records[-1].rolls, "exchange 6 should carry the deferred attack roll"
    gf = session.refresh_reading_copies(gf, m)
    return gf.to_toml().encode("utf-8"), hashes(gf), canonical(m.public_state())


def hashes(gf: GameFile) -> list[str]:
    return [cycle.exchange_hash(ex) for ex in gf.exchanges]


def open_file(path: Path) -> Any:
    return session.open_game(path, None, scenario=SCENARIO_FILE)


def test_the_untouched_file_opens(signed, tmp_path) -> None:
    data, want, state = signed
    path = tmp_path / "game.toml"
    path.write_bytes(data)
    loaded = open_file(path)
    assert hashes(loaded.gf) == want
    assert canonical(loaded.match.public_state()) == state


def test_every_sampled_single_byte_change_is_refused_or_the_same_game(signed, tmp_path) -> None:
    data, want, state = signed
    rng = random.Random(1941)
    positions = rng.sample(range(len(data)), min(SAMPLE, len(data)))
    assert len(positions) >= SAMPLE
    path = tmp_path / "mutant.toml"
    reasons: Counter[str] = Counter()
    accepted: list[int] = []
    wrong: list[str] = []
    for pos in positions:
        new = rng.choice([b for b in range(256) if b != data[pos]])
        path.write_bytes(data[:pos] + bytes([new]) + data[pos + 1:])
        try:
            loaded = open_file(path)
        except PbemError as exc:
            text = str(exc)
            if "\n" in text or not text:
                wrong.append(f"byte {pos}: not one line: {text!r}")
            reasons[_reason_kind(text)] += 1
            continue
        except Exception as exc:  # anything else would be a traceback for the user
            wrong.append(f"byte {pos} -> {new:#04x}: {type(exc).__name__}: {exc}")
            continue
        accepted.append(pos)
        if hashes(loaded.gf) != want or canonical(loaded.match.public_state()) != state:
            wrong.append(f"byte {pos} -> {new:#04x}: accepted as a different game")
    assert not wrong, "\n".join(wrong[:20])
    # The sample reached every part of the file: each exchange's signature
    # caught some change, and so did the parser and the reading copies.
    for n, side in enumerate(["red", "blue"] * 3, 1):
        assert reasons[f"exchange {n} by {side}"] > 0, reasons
    assert reasons["parse"] > 0 and reasons["[state]"] > 0, reasons
    # What was accepted is immaterial: comments and layout only.
    for pos in accepted:
        line = _line_at(data, pos)
        assert line.startswith(b"#") or _only_layout_changed(data, pos), line


def _reason_kind(text: str) -> str:
    m = re.match(r"(exchange \d+ by (red|blue))", text)
    if m:
        return m.group(1)
    if text.startswith("[state]"):
        return "[state]"
    return "parse"


def _line_at(data: bytes, pos: int) -> bytes:
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    return data[start:end if end >= 0 else len(data)]


def _only_layout_changed(data: bytes, pos: int) -> bool:
    """A byte outside any string value: whitespace around ``=``, after a
    table header or on a blank line (TOML reads a tab as a space), or layout inside the JSON
    reading copy, which is compared after parsing."""
    line = _line_at(data, pos)
    col = pos - (data.rfind(b"\n", 0, pos) + 1)
    if data[pos:pos + 1] in (b" ", b"\t", b"\n"):
        return True
    return line.startswith(b"public = ") and col >= len(b"public = ")


def variants(data: bytes) -> dict[str, bytes]:
    text = data.decode("utf-8")
    lines = text.split("\n")
    return {
        "crlf": text.replace("\n", "\r\n").encode(),
        "indented": "\n".join(("    " + ln) if ln.strip() else ln for ln in lines).encode(),
        "tabs": "\n".join(re.sub(r"^(\w+) = ", r"\t\1\t=\t", ln) for ln in lines).encode(),
        "trailing spaces": "\n".join(ln + "  " if ln.strip() and not ln.startswith("#") else ln for ln in lines).encode(),
        "bom": b"\xef\xbb\xbf" + data,
        "crlf and indented": "\r\n".join("  " + ln for ln in lines).encode(),
        "no comments": "\n".join(ln for ln in lines if not ln.startswith("#")).encode(),
    }


@pytest.mark.parametrize("kind", ["crlf", "indented", "tabs", "trailing spaces", "bom", "crlf and indented",
                                  "no comments"])
def test_mail_client_mangling_keeps_the_same_game(signed, tmp_path, kind) -> None:
    data, want, state = signed
    mangled = variants(data)[kind]
    assert mangled != data
    path = tmp_path / "mangled.toml"
    path.write_bytes(mangled)
    loaded = open_file(path)
    assert hashes(loaded.gf) == want
    assert canonical(loaded.match.public_state()) == state


def test_a_mangled_file_still_catches_a_tampered_order(signed, tmp_path) -> None:
    """CRLF does not open a gap: after conversion a changed order is still
    refused, naming its exchange."""
    data, _, _ = signed
    crlf = variants(data)["crlf"]
    assert crlf.count(b'how = "block"') == 1
    path = tmp_path / "tampered.toml"
    path.write_bytes(crlf.replace(b'how = "block"', b'how = "dodge"'))
    with pytest.raises(PbemError, match=r"^exchange 6 by blue: bad signature"):
        open_file(path)
