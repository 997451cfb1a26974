"""Positions: ``pbem position FILE`` writes where a game stands as a
position file, and ``pbem new --position`` reads one (:func:`read_position`).
A position is the game's own TOML table (docs/FILE-FORMAT.md, "Positions")."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _me
from pbem.errors import UsageError


def read_position(path: Path, game: Any, scenario_id: str, scenario: dict[str, Any],
                  options: dict[str, Any]) -> dict[str, Any]:
    """The position in ``path``, checked by the game's rules on this
    scenario (every problem one line): what the new game's header signs."""
    from pbem.game import ScenarioError
    from pbem.scenario import load_toml

    if not path.is_file():
        raise UsageError(f"--position {path}: no such file")
    position = load_toml(path, "position")
    named = position.get("scenario")
    if named is not None and named != scenario_id:
        raise UsageError(f"--position {path}: it is a position of scenario {named}, not of {scenario_id}")
    try:
        game.rules(scenario, game.validate_options(options)).state_from_position(position)
    except ScenarioError as exc:
        raise UsageError(f"--position {path}: {exc}") from None
    return position


@click.command("position")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path),
              help="Write it here (default: FILE's name with -position.toml beside it).")
def position_command(file: Path, out: Path | None) -> None:
    """Where the game stands, as a position file that `pbem new --position`
    starts a game from: the public situation for a player; everything once
    every seat has disclosed its secrets at the game's end (the audit)."""
    import tomli_w

    from pbem import session
    from pbem.cli.maps import _output
    from pbem.cli.records import _open_with_progress
    from pbem.cycle import audit as rounds
    from pbem.fsutil import atomic_write
    from pbem.game import ScenarioError, seen_by

    if out is not None:
        _output(out, "--out")
    m = _open_with_progress(file, _me(required=False), cached=True).match
    full = m.over() and not rounds.missing(m)
    if full:
        m = session.open_game(file, None, audit=True).match
    state = m.state if full else seen_by(m.state, None)
    try:
        position = m.rules.position_of(state, None if full else m.me)
    except ScenarioError as exc:
        raise UsageError(str(exc)) from None
    target = out or _output(file.with_name(f"{file.stem}-position.toml"), "position")
    what = "full (after the audit)" if full else "public"
    head = (f"# Position of game {m.game_id} after exchange {len(m.exchanges)}, {what}.\n"
            f"# Start a game from it: pbem new {m.header['scenario']} --position {target.name} --seat ...\n\n")
    atomic_write(target, (head + tomli_w.dumps(position)).encode("utf-8"), overwrite=True)
    click.echo(f"Position written: {target} ({what})")


__all__ = ["position_command", "read_position"]
