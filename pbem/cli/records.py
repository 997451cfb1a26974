"""Commands that read a game: verify, sitrep, log, dice; and the agreements
and mail around it: audit, rewind, mail, demo."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli.base import _ask_passphrase, _console, _me
from pbem.cli.quick import open_with_progress as _open_with_progress
from pbem.cli.quick import verify_command
from pbem.cli.play import _print_sitrep
from pbem.errors import PbemError, UsageError


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--scenario", "scenario_override")
def verify(file: Path, scenario_override: str | None) -> None:
    """Replay the whole game; exit 0 if valid, 1 with the reason if not."""
    verify_command(file, scenario_override, _ask_passphrase, click.echo)     # `pbem verify FILE` runs it without click


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--side", help="Whose view (default: yours; a bystander sees the public view).")
@click.option("--map", "map_mode", default="window", show_default=True, metavar="window|all",
              help="window: the map around the action; all: the whole map at the terminal's width, paged.")
def sitrep(file: Path, side: str | None, map_mode: str) -> None:
    """Situation report: map, units, what is pending for whom."""
    if map_mode not in ("window", "all"):
        raise UsageError(f"--map {map_mode}: give window (the map around the action) or all (the whole map)")
    me = _me(required=False)
    loaded = _open_with_progress(file, me, cached=True)
    m = loaded.match
    view = side or m.me
    if view is not None and view != m.me:
        raise UsageError("you may only see your own side's view (or the public one)")
    console = _console()
    console.print(f"[bold]{m.game.title}[/bold] - game {m.game_id} - {m.who_acts()}")
    if map_mode == "all":
        from pbem.cli.maps import print_whole_map

        print_whole_map(console, m, m.state, view)
        return
    _print_sitrep(console, m, m.state, view)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--last", "last", type=int, default=0, help="Only the last N exchanges.")
def log(file: Path, last: int) -> None:
    """The human-readable record of the game."""
    from pbem import session

    m = _open_with_progress(file, _me(required=False), cached=True).match
    records = m.records[-last:] if last else m.records
    click.echo(session.turn_log(m, records), nl=False)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="The same listing as JSON, for an independent verifier.")
def dice(file: Path, as_json: bool) -> None:
    """Every roll and draw of the game, recomputed from the chain reveals:
    each stream with the reveals that keyed it, each value with its purpose
    and position, each draw with the cup it was drawn from."""
    import json

    from pbem.cycle import dice_listing

    m = _open_with_progress(file, _me(required=False), cached=True).match
    listing = dice_listing(m)
    if as_json:
        click.echo(json.dumps(listing, indent=1, sort_keys=True))
        return
    count = 0
    for stream in listing:
        keys = ", ".join(f"{s} {r[:16]}..." for s, r in stream["keyed_by"].items())
        click.echo(f"exchange {stream['exchange']} ({stream['sender']}): stream {stream['stream']} keyed by {keys}")
        for roll in stream["rolls"]:
            count += 1
            click.echo("  " + _roll_line(roll))
        for seat, rolls in stream["secret"].items():
            for roll in rolls:
                count += 1
                click.echo(f"  {seat}'s secret stream: " + _roll_line(roll))
    click.echo(f"{count} rolls and draws, each recomputed from the reveals: all match.")


def _roll_line(roll: dict[str, Any]) -> str:
    if roll["op"] == "draw":
        what = f"draw from [{', '.join(roll.get('cup', []))}] -> index {roll['result']} ({roll.get('item')})"
    else:
        what = f"{roll['op']} -> {roll['result']}"
    return f"value {roll['pos']:3}: {roll['purpose']}: {what}"





@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--forfeit", is_flag=True,
              help="Record that the seat whose disclosure is due will not make it (once you have disclosed).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def audit(file: Path, forfeit: bool, out_dir: Path) -> None:
    """At game end: disclose your secrets when it is your turn to (seats
    disclose in turn), and once every seat has, replay the whole game with
    nothing hidden.  Until then it says whose disclosure is due and fails."""
    from pbem import session
    from pbem.cycle import audit as rounds
    from pbem.cycle import write

    me = _me()
    loaded = session.open_game(file, me)
    m = loaded.match
    if m.me is None:
        raise UsageError("your key is not a player of this game")
    if not m.over():
        raise UsageError(f"the game is not over: secrets are disclosed only at its end ({m.who_acts()})")
    if forfeit:
        ex = write.forfeit_exchange(m, me)
        done = session.append_and_write(loaded, ex, me, out_dir)
        click.echo(f"The forfeit of {ex['who']}'s disclosure is recorded in {done.path}; send it on "
                   f"(`pbem mail {done.path}`).")
        _audit_status(done.match, done.path, fail=False)
        return
    if rounds.next_discloser(m) == m.me:
        done = session.append_and_write(loaded, write.disclose_exchange(m, me), me, out_dir)
        click.echo(f"Your secrets are disclosed in {done.path}; send it on (`pbem mail {done.path}`).")
        _audit_status(done.match, done.path, fail=False)
        return
    _audit_status(m, file, fail=True)


def _audit_status(m: Any, path: Path, fail: bool) -> None:
    """Every seat has disclosed: replay the whole game with nothing hidden
    and print the verdict.  Otherwise say who has not, and whose disclosure
    is due (failing, if ``fail``)."""
    from pbem import session
    from pbem.cycle import audit as rounds

    missing = rounds.missing(m)
    if not missing:
        full = session.open_game(path, None, audit=True)
        click.echo(f"audit: no discrepancy in {len(full.match.exchanges)} exchanges; {full.match.result()}")
        return
    due = rounds.next_discloser(m)
    forfeited = [s for s in missing if s in m.forfeits]
    line = f"incomplete: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} not disclosed"
    if forfeited:
        line += f" ({', '.join(f'{s} forfeited in exchange {m.forfeits[s]}' for s in forfeited)})"
    if due is not None:
        line += f"; waiting for {due} to disclose (`pbem audit` on the latest file, in {due}'s program)"
        if m.me in rounds.disclosed(m) and due != m.me:
            line += f"; if {due} never does, `pbem audit FILE --forfeit` records it"
    else:
        line += "; the game cannot be replayed with nothing hidden"
    if fail:
        raise PbemError(line)
    click.echo(line)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "to", type=int, help="Offer to take the game back to the state after exchange N.")
@click.option("--accept", is_flag=True, help="Accept the open offer.")
@click.option("--decline", is_flag=True, help="Decline the open offer (signed, like an acceptance).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def rewind(file: Path, to: int | None, accept: bool, decline: bool, out_dir: Path) -> None:
    """Take back a misclick: one player offers (in or out of turn), every
    other player accepts (or one declines).  The signatures and the undone
    exchanges stay in the record.  A rewind takes back orders, never dice:
    it goes back no further than the last exchange that rolled."""
    from pbem import cycle, session

    if [to is not None, accept, decline].count(True) != 1:
        raise UsageError("give one of --to N (offer), --accept or --decline")
    me = _me()
    loaded = session.open_game(file, me)
    ex = cycle.rewind_exchange(loaded.match, me, to, decline=decline)
    path = session.append_and_write(loaded, ex, me, out_dir).path
    what = "Rewind offered" if to is not None else ("Rewind declined" if decline else "Rewind accepted")
    click.echo(f"{what}: {path}; send it on (`pbem mail {path}`).")


@click.command()
@click.argument("file", metavar="FILE|GAME", type=click.Path(path_type=Path))
@click.option("--to", "recipient", help="Recipient address (default: every other seat's player).")
@click.option("--send", is_flag=True, help="Send it by SMTP (configured in $PBEM_HOME/smtp.toml or --smtp).")
@click.option("--smtp", "smtp_file", type=click.Path(path_type=Path), help="SMTP settings file ([smtp] host, port, sender...).")
def mail(file: Path, recipient: str | None, send: bool, smtp_file: Path | None) -> None:
    """Make an .eml with the turn log as body and the game file attached
    (and send it, with --send; run it again to retry a failed send).  It
    signs nothing: no passphrase is asked."""
    from pbem import mail as mailmod
    from pbem import session
    from pbem.protocol import gamefile

    public = _my_public()
    if not file.exists():       # a GAME id: its newest kept version, written out as play writes it
        from pbem.cli.mailbox import game_to_mail
        file = game_to_mail(file, public)
    loaded = session.open_game(file, None, cached=True)
    m = loaded.match
    seat = next((s for s, p in m.seats.items() if p.identity.sign_pub == public.sign_pub), None)
    if seat is None:
        raise UsageError("your key is not a player of this game")
    recipients = [recipient] if recipient else session.recipients(m, seat)
    if not recipients:
        raise UsageError("no recipient: give --to")
    to = ", ".join(recipients)
    body = session.turn_log(m, m.records[-1:])
    from pbem import conversation     # one thread per game: subject, Message-ID per exchange, In-Reply-To

    subject = conversation.subject(m)
    sender = mailmod.address(public.name, public.email)
    out = file.with_suffix(".eml")
    if out.resolve() == file.resolve():
        raise UsageError(f"{file} is an email already: give the game file it carries")
    eml = _kept_eml(out, file)
    if eml is None:
        from pbem.cli.maps import mail_picture   # the recipient's view, drawn from the public state

        eml = mailmod.compose_eml(file, body, sender=sender, recipient=to, subject=subject, game_id=m.game_id,
                                  thread=conversation.thread_headers(m.game_id, len(m.exchanges)),
                                  picture=mail_picture(m, seat))
        gamefile.atomic_write(out, eml)
        click.echo(f"Email written: {out} (to {to})")
    else:
        click.echo(f"Email kept: {out} (to {to}), written before for this same file")
    if send:
        cfg = mailmod.load_smtp_config(smtp_file or session.home() / "smtp.toml")
        mailmod.send(cfg, eml, [mailmod.bare_address(r) for r in recipients])
        click.echo(f"Sent to {to} via {cfg.host}:{cfg.port}")


def _my_public() -> Any:
    """The player's public identity, from ``me.id.toml``: no passphrase.
    A home made before that file existed falls back on the key."""
    from pbem import session
    from pbem.protocol import identity

    path = session.my_public_path()
    if path.exists():
        return identity.load_public(path)
    return _me().public


def _kept_eml(out: Path, game_file: Path) -> bytes | None:
    """The .eml written before for this very game file (a retried send
    sends the same message, Message-ID and all), or None."""
    from pbem.mail import extract_game

    if not out.is_file():
        return None
    try:
        data = out.read_bytes()
        _, attached = extract_game(data)
        if attached == game_file.read_bytes():
            return data
    except (OSError, UsageError, PbemError):
        return None
    return None


@click.command()
@click.argument("game", required=False, default=None)
@click.option("--exchanges", default=8, show_default=True, help="How many exchanges to play.")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), help="Keep the demo folder here.")
@click.option("--seats", default=2, show_default=True, help="Players at the table (a multiplayer game: ava 4 to 6).")
def demo(game: str | None, exchanges: int, keep: Path | None, seats: int) -> None:
    """A scripted game between two generated players in a temporary folder:
    each exchange's turn log and sitreps, then a full verify."""
    from pbem import demo as demomod

    demomod.run(game, exchanges, keep, echo=click.echo, console=_console(), seats=seats)
