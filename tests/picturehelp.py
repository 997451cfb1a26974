"""Helpers of the map-picture tests: the SVG namespace, the chunk kinds of
a PNG, and a #rrggbb colour as numbers."""
from __future__ import annotations

import struct

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

