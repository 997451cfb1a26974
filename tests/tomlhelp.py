"""The comparison the fast TOML reader's tests make: on a text it either
gives up (None) or yields exactly tomllib's values, types included."""
from __future__ import annotations

import tomllib
from typing import Any

from pbem.protocol import fasttoml


def tomllib_or_refused(text: str) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "refused"


def agrees(text: str) -> bool:
    fast = fasttoml.loads(text)
    if fast is None:
        return True
    # repr tells True from 1 and a list from a tuple, where == would not.
    return repr(fast) == repr(tomllib_or_refused(text))
