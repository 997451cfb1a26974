"""Map pictures: ``pbem map`` (the whole map as a seat may see it, as PNG
and/or SVG), the whole map in the terminal (``pbem sitrep --map all``) and
the picture the mail carries (the recipient's view)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _me
from pbem.errors import UsageError

PUBLIC = "public"


def _seat(m: Any, side: str | None) -> str | None:
    """The seat whose view to draw: ``side`` (your own seat, or "public"),
    by default yours (the public view when you are not a player)."""
    if side is None or side == m.me:
        return m.me
    if side == PUBLIC:
        return None
    if side not in m.seat_names:
        raise UsageError(f"--side {side}: no such seat in this game ({', '.join(m.seat_names)}, or {PUBLIC})")
    raise UsageError(f"--side {side}: you may only see your own seat's view ({m.me or 'you are not a player'}) "
                     f"or the {PUBLIC} one")


def _output(path: Path, what: str) -> Path:
    """``path`` checked before anything is drawn: its folder exists and it
    is not a folder itself.  UsageError in one line otherwise."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"{what} {path}: is a folder; give a file name")
    if not folder.is_dir():
        raise UsageError(f"{what} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{what} {path}: folder {folder} is not writable")
    return path


@click.command("map")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--side", help=f"Whose view: your own seat (default) or {PUBLIC}.")
@click.option("--png", "png_out", type=click.Path(path_type=Path), help="Write the picture as PNG here.")
@click.option("--svg", "svg_out", type=click.Path(path_type=Path), help="Write the picture as SVG here.")
def map_command(file: Path, side: str | None, png_out: Path | None, svg_out: Path | None) -> None:
    """The whole map as your seat may see it: terrain, rivers, roads,
    places and victory marks, every stack you may see.  With neither --png
    nor --svg, writes FILE's name with -SEAT.png beside it.  An existing
    picture of that name is replaced (atomically)."""
    from pbem.fsutil import atomic_write
    from pbem.render import picture

    from pbem.cli.records import _open_with_progress

    if png_out and svg_out and png_out.resolve() == svg_out.resolve():
        raise UsageError("--png and --svg name the same file")
    for out, what in ((png_out, "--png"), (svg_out, "--svg")):
        if out is not None:
            _output(out, what)
    m = _open_with_progress(file, _me(required=False), cached=True).match
    seat = _seat(m, side)
    view = m.rules.view(m.state, seat)
    try:
        canvas = picture.layout(view)           # laid out once for both formats
    except picture.NoPicture:
        raise UsageError(f"{m.game.title} draws no map picture yet") from None
    if png_out is None and svg_out is None:
        png_out = _output(file.with_name(f"{file.stem}-{seat or PUBLIC}.png"), "picture")
    for out, draw in ((png_out, lambda: picture.to_png(canvas)), (svg_out, lambda: picture.to_svg(canvas, view.title))):
        if out is not None:
            atomic_write(out, draw(), overwrite=True)
            click.echo(f"Map written: {out} ({seat or PUBLIC} view)")


def print_whole_map(console: Any, m: Any, state: dict[str, Any], seat: str | None) -> None:
    """``pbem sitrep --map all``: the view with the whole map at the
    terminal's width, through rich's pager when taller than the screen (and
    the output is a terminal)."""
    from pbem.render.view import render_rich

    width = max(40, console.width - 4)           # a panel's frame and padding
    body = render_rich(m.rules.view(state, seat), map="all", width=width)
    lines = console.render_lines(body, console.options, pad=False)
    if console.is_terminal and len(lines) > console.height:
        with console.pager(styles=True):
            console.print(body)
    else:
        console.print(body)


def mail_picture(m: Any, sender: str | None) -> tuple[bytes, str, str] | None:
    """The PNG of the recipient's view for the mail, its file name and its
    alternative text; None when the game draws no picture.  It is drawn
    from the public state: the sender's program must not show its own
    secrets and does not hold the recipient's.  With several recipients it
    is the public view."""
    from pbem.game import seen_by
    from pbem.render import picture

    others = [s for s in m.seat_names if s != sender]
    seat = others[0] if len(others) == 1 else None
    view = m.rules.view(seen_by(m.state, None), seat)
    try:
        png = picture.png(view)
    except picture.NoPicture:
        return None
    return png, f"map-{seat or PUBLIC}.png", f"{view.title}: the map as {seat or 'anyone'} may see it"


__all__ = ["map_command", "mail_picture", "print_whole_map"]
