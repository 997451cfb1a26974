"""Helpers of the map-picture tests: the SVG namespace, the chunk kinds of
a PNG, a #rrggbb colour as numbers, the AVD chits a side holds face down,
and ``pbem`` run in a subprocess on a player's home."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, kinds = 8, []
    while i < len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        kinds.append(kind)
        i += 12 + length
    return kinds


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def secret_chits(state: dict[str, Any], side: str) -> set[str]:
    """The AVD chits ``side`` holds face down and has not played."""
    return {c for c, _ in ((state["hidden"][side] or {}).get("chits") or {}).values()} - set(state["played"])


def pbem(home: Path, *args: str, ok: bool = True, columns: int = 100) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_HOME=str(home), COLUMNS=str(columns), LINES="40", PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, env=env,
                       timeout=300)
    if ok:
        assert r.returncode == 0, r.stderr
    else:
        assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("pbem: "), r
    return r

