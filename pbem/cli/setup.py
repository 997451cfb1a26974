"""Commands that set a player and a game up: keygen, scenarios, new, join."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli.base import DICE_HELP, _me, _message, _option_value, _parse_kv
from pbem.errors import UsageError


@click.command()
@click.option("--name", help="Your name as your opponents will see it.")
@click.option("--email", help="Your email address.")
@click.option("--passphrase/--no-passphrase", default=None, help="Protect the key file with a passphrase.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Where to write the public identity file to send to opponents.")
def keygen(name: str | None, email: str | None, passphrase: bool | None, out_dir: Path) -> None:
    """Make your player identity: a private key file (mode 0600, in
    $PBEM_HOME) and a public identity file to email to opponents."""
    import os

    from pbem import session
    from pbem.protocol import identity

    name = name or click.prompt("Your name")
    email = email or click.prompt("Your email")
    secret = os.environ.get("PBEM_PASSPHRASE")
    if passphrase and secret is None:
        secret = click.prompt("Passphrase", hide_input=True, confirmation_prompt=True)
    if passphrase is False:
        secret = None
    me = identity.generate(name, email)
    key = session.key_path()
    key.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if key.exists():
        raise UsageError(f"{key} already exists: one identity per PBEM_HOME (move it away to make another)")
    identity.save_private(me, key, secret)
    identity.save_public(me.public, session.my_public_path())
    slug = "".join(c for c in name.lower() if c.isalnum()) or "player"
    public_file = out_dir / f"{slug}.id.toml"
    identity.save_public(me.public, public_file)
    click.echo(f"Fingerprint: {me.public.fingerprint}")
    click.echo(f"Private key: {key} (keep it; never send it)")
    click.echo(f"Public identity: {public_file} (email it to your opponent; read the fingerprint to each other)")


# ----------------------------------------------------------------- scenarios


@click.command()
def scenarios() -> None:
    """List the shipped scenarios: practice or published, and what is missing."""
    from pbem import scenario

    for name, game, title, practice, missing in scenario.list_all():
        kind = "practice data" if practice else "published"
        state = "complete" if missing == 0 else (f"{missing} values missing" if missing > 0 else "unreadable")
        click.echo(f"{name:24} {game:5} {kind:14} {state:22} {title}")


@click.group(name="scenario")
def scenario_group() -> None:
    """Work with scenario files."""


@scenario_group.command("check")
@click.argument("file")
def scenario_check(file: str) -> None:
    """What a transcribed scenario still lacks or gets wrong."""
    from pbem import games, scenario

    data = scenario.load_toml(scenario.find(file))
    head = scenario.header(data, file)
    problems = games.load(head["game"]).check_scenario(data)
    if not problems:
        click.echo(f"{head['id']}: complete and consistent; sha256 {scenario.scenario_sha256(data)}")
        return
    click.echo(f"{head['id']}: {len(problems)} problem(s):")
    for line in problems:
        click.echo(f"  {line}")
    sys.exit(1)


@scenario_group.command("map")
@click.argument("file")
def scenario_map(file: str) -> None:
    """A text picture of a scenario's map, to check a transcription against
    the paper map."""
    from pbem import games, scenario
    from pbem.render.view import render_text

    data = scenario.load_toml(scenario.find(file))
    head = scenario.header(data, file)
    view = games.load(head["game"]).scenario_view(data)
    click.echo(render_text(view, width=120), nl=False)


# ---------------------------------------------------------------- new / join


@click.command()
@click.argument("scenario_name", metavar="SCENARIO")
@click.option("--seat", "--side", "sides", multiple=True, required=True,
              help="SEAT=me or SEAT=player.id.toml, one per seat (in a two-player game the seats are the sides).")
@click.option("--dice", type=click.Choice(["sealed", "immediate"]), default="sealed", show_default=True, help=DICE_HELP)
@click.option("--option", "options", multiple=True, help="Rule option NAME=VALUE.")
@click.option("--message", default="", help="A short note to your opponent.")
@click.option("--position", "position_file", type=click.Path(path_type=Path),
              help="Start from the situation this position file describes (see `pbem position`).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def new(scenario_name: str, sides: tuple[str, ...], dice: str, options: tuple[str, ...], message: str,
        position_file: Path | None, out_dir: Path) -> None:
    """Create a game.  Example: pbem new avd/practice --seat german=me --seat soviet=pavel.id.toml"""
    import os

    from pbem import cycle, games, scenario, session

    message = _message(message)
    me = _me()
    data = session.load_scenario(scenario_name)
    head = scenario.header(data, scenario_name)
    game = games.load(head["game"])
    problems = game.check_scenario(data)
    if problems:
        groups = list(dict.fromkeys(p.split(":", 1)[0].strip() for p in problems))
        raise UsageError(f"{head['id']} cannot be played yet: {len(problems)} problem(s) in {', '.join(groups)}; "
                         f"`pbem scenario check {head['id']}` lists what to transcribe")
    assigned = _parse_kv(sides, "--seat")
    opts = {k: _option_value(v) for k, v in _parse_kv(options, "--option").items()}
    seat_names = [s.name for s in cycle.write.game_seats(game, game.validate_options(opts))]
    if set(assigned) != set(seat_names) or len(assigned) != len(sides):
        raise UsageError(f"name every seat of {game.id} once: {', '.join(seat_names)}")
    mine = [s for s, spec in assigned.items() if spec == "me"]
    if len(mine) != 1:
        raise UsageError("exactly one seat must be `me`")
    invited = {s: session.resolve_identity(spec, me) for s, spec in assigned.items() if spec != "me"}
    from pbem import contacts       # a key seen for the first time is shown (and confirmed at a terminal)
    for s, i in invited.items():
        if contacts.known_as(i) is None:
            click.echo(f"First use of {i.name}'s key ({s}): fingerprint {i.fingerprint}; check it with {i.name}")
            if sys.stdin.isatty() and not click.confirm("Is it the one he gave you?", default=False):
                raise UsageError("not created; nothing written")
    position = None
    if position_file is not None:
        from pbem.cli.position import read_position

        position = read_position(position_file, game, head["id"], data, opts)
    game_id = f"{game.id}-{os.urandom(6).hex()}"
    gf = cycle.new_game(game_id=game_id, game=game.id, scenario_name=head["id"], scenario=data, options=opts,
                        dice=dice, creator=me, creator_side=mine[0], invited=invited, message=message,
                        position=position)
    m = cycle.replay(gf, data, me)
    path, log = session.write_outputs(gf, m, session.turn_log(m, m.records), out_dir)
    opp = ", ".join(f"{i.name} <{i.email}> ({s})" for s, i in invited.items())
    click.echo(f"Game {game_id} created: {path}")
    click.echo(f"Send it to {opp}: `pbem mail {path}` makes the email. Each runs `pbem join` on it in turn.")


@click.command()
@click.argument("file", metavar="FILE|GAME", type=click.Path(path_type=Path))
@click.option("--yes", is_flag=True, help="Join without asking for confirmation.")
@click.option("--message", default="", help="A short note to your opponent.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def join(file: Path, yes: bool, message: str, out_dir: Path) -> None:
    """Join a game you were invited to (shows it first)."""
    from pbem import cycle, session

    message = _message(message)
    me = _me()
    if not file.exists():       # a GAME id: the invitation `pbem fetch` put aside
        from pbem.cli.mailbox import invitation_to_join
        file = invitation_to_join(file)
    loaded = session.open_game(file, me)
    m = loaded.match
    side = next((s for s, i in m.header.get("invited", {}).items() if i.get("sign_pub") == me.public.sign_pub), None)
    seated = next((s for s, p in m.seats.items() if p.identity.sign_pub == me.public.sign_pub), None)
    if side is None and seated is not None:
        raise UsageError(f"already joined: you play {seated} in this game (you created it)")
    if side is None:
        raise UsageError("this game did not invite your key")
    if side in m.seats:
        raise UsageError(f"already joined: you play {side} in this game")
    from pbem import contacts       # a contact whose key changed is refused with both fingerprints
    for player in m.seats.values():
        contacts.check(player.identity, "this game")
    click.echo(f"Game {m.game_id}: {m.game.title}, scenario {m.header['scenario']}")
    team = "" if m.side_of(side) == side else f" for {m.side_of(side)}"
    click.echo(f"You play {side}{team}")
    for seat, player in m.seats.items():
        click.echo(f"{player.identity.name} <{player.identity.email}> plays {seat}, "
                   f"fingerprint {player.identity.fingerprint}")
    click.echo(f"Dice timing: {m.timing}")
    click.echo("Rule options:" if m.header.get("options") else "Rule options: none")
    for name, value in (m.header.get("options") or {}).items():
        click.echo(f"  {name} = {_option_text(value)}")
    for ex in m.exchanges:
        if ex.get("message"):
            click.echo(session.clean_text(f"Message from {ex['side']}: \"{ex['message']}\""))
    if not yes and not click.confirm("Join this game?", default=True):
        raise UsageError("not joined; nothing written")
    done = session.append_and_write(loaded, cycle.join_exchange(m, me, side, message), me, out_dir)
    path, m2 = done.path, done.match
    click.echo(f"Joined as {side}: {path}")
    if m2.next_sender() == side:
        click.echo(f"You move first: run `pbem play {path}`.")
    else:
        click.echo(f"Send it back: `pbem mail {path}`.")


def _option_text(value: object) -> str:
    """A rule option's value as it is given on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ----------------------------------------------------------------------- play
