"""``pbem replay FILE --html OUT``: the replay page of a game, as one seat
saw it (:mod:`pbem.render.replaypage` builds it)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _me
from pbem.cli.maps import PUBLIC, _output, _seat


@click.command("replay")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--html", "html_out", type=click.Path(path_type=Path),
              help="Write the page here (default: FILE's name with -SEAT.html beside it).")
@click.option("--side", help=f"Whose view: your own seat (default) or {PUBLIC}.")
def replay_command(file: Path, html_out: Path | None, side: str | None) -> None:
    """One self-contained HTML page stepping through every exchange as your
    seat saw it: the map after it, its turn log, its rolls and their
    purposes.  It needs no network; buttons, the arrow keys, Home and End
    step through it, and PAGE#step=N opens exchange N."""
    from pbem.cli.records import _open_with_progress
    from pbem.fsutil import atomic_write

    if html_out is not None:
        _output(html_out, "--html")
    m = _open_with_progress(file, _me(required=False), cached=True).match
    seat = _seat(m, side)
    out = html_out or _output(file.with_name(f"{file.stem}-{seat or PUBLIC}.html"), "page")
    text, pictures = replay_page(m, seat)
    data = text.encode("utf-8")
    atomic_write(out, data, overwrite=True)
    click.echo(f"Replay page written: {out} ({len(m.records)} exchanges, {pictures} map states, "
               f"{len(data) // 1024} KB; {seat or PUBLIC} view)")


def replay_page(m: Any, seat: str | None) -> tuple[str, int]:
    """The page of match ``m`` as ``seat`` (None: anyone) may see it, and
    how many distinct map states it draws.  Each state is the one this
    program holds after the exchange, shown through the game's view for
    ``seat``; a seat's own secret draws are listed only in its own page."""
    import copy

    from pbem import session
    from pbem.game import seen_by
    from pbem.render import picture, replaypage
    from pbem.render.turnlog import record_lines

    heading = session.log_heading(m)
    pictures = replaypage.Pictures()
    drawn: dict[str, int] = {}
    steps = []
    for i, rec in enumerate(m.records):
        state = seen_by(m.snapshots[i]["game"], seat)
        view = m.rules.view(state, seat)
        pic: int | None
        try:
            key = repr((view.title, view.practice, picture.map_block(view)))
            if key not in drawn:
                drawn[key] = pictures.add(picture.layout(view))
            pic = drawn[key]
        except picture.NoPicture:
            pic = None
        unrolled = copy.copy(rec)
        unrolled.rolls = []
        lines = session.clean_text("\n".join(record_lines(heading, unrolled))).split("\n")
        own = rec.secret_rolls.get(seat, []) if seat is not None and seat == m.me else []
        steps.append(replaypage.Step(rec.n, lines[0], tuple(lines[1:]), tuple(rec.rolls), tuple(own), pic))
    viewer = f"{seat}'s view" if seat else "the public view"
    notice = heading.notice
    return replaypage.page(f"{m.game.title} - game {m.game_id}", viewer, notice, session.now_line(m), steps,
                           pictures), len(drawn)


__all__ = ["replay_command", "replay_page"]
