"""The ``pbem`` command: parse, call the library, print.  No rules here.

Every failure the user can cause ends in one line on stderr and a non-zero
exit (1 for an invalid file or illegal order, 2 for a usage error); nothing
is written unless the whole command succeeded.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem.errors import PbemError, UsageError

DICE_HELP = (
    "Dice timing.  sealed (default): rolls your orders ask for are keyed by your "
    "opponent's next reveal, so you sign without knowing the result and his program "
    "resolves them - fair even against a player who modifies the program.  immediate: "
    "results at once, still verifiable and not re-rollable, but a player running a "
    "modified program could foresee the dice before ordering: for friendly games only."
)


class Cli(click.Group):
    """Turns every PbemError (and any stray exception) into one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PbemError as exc:
            click.echo(f"pbem: {_one_line(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("pbem: interrupted; nothing written", err=True)
            sys.exit(130)
        except Exception as exc:  # never a traceback for the user
            click.echo(f"pbem: internal error: {type(exc).__name__}: {_one_line(str(exc))}", err=True)
            sys.exit(3)


def _one_line(text: str) -> str:
    """Messages quote names from the files (a side, a player): a line break
    or terminal control character in one must not break the promise of a
    single plain line, so such characters are shown escaped."""
    return "".join(repr(c)[1:-1] if (ord(c) < 32 and c != "\t") or 127 <= ord(c) < 160 or c in "\u2028\u2029" else c
                   for c in text)


@click.group(cls=Cli)
@click.version_option(package_name="pbem")
def main() -> None:
    """Play-by-email adjudicator for operational wargames of the Russo-German
    war: signed game files, dice neither player can bias, hidden information
    kept hidden, every rule enforced."""


def _console() -> Any:
    from rich.console import Console

    return Console()


def _ask_passphrase() -> str | None:
    if not sys.stdin.isatty():
        return None
    return click.prompt("Passphrase", hide_input=True, default="", show_default=False) or None


def _me(required: bool = True) -> Any:
    from pbem import session

    if not required and not session.key_path().exists():
        return None
    return session.load_me(_ask_passphrase)


# ------------------------------------------------------------------ identity


@main.command()
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


@main.command()
def scenarios() -> None:
    """List the shipped scenarios: practice or published, and what is missing."""
    from pbem import scenario

    for name, game, title, practice, missing in scenario.list_all():
        kind = "practice data" if practice else "published"
        state = "complete" if missing == 0 else (f"{missing} values missing" if missing > 0 else "unreadable")
        click.echo(f"{name:24} {game:5} {kind:14} {state:22} {title}")


@main.group(name="scenario")
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
    import importlib

    from pbem import scenario

    data = scenario.load_toml(scenario.find(file))
    head = scenario.header(data, file)
    try:
        module = importlib.import_module(f"pbem.games.{head['game']}.picture")
    except ImportError:
        raise UsageError(f"no map picture for {head['game']} scenarios yet") from None
    click.echo(module.picture(data))


# ---------------------------------------------------------------- new / join


def _parse_kv(items: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"{what} takes NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


@main.command()
@click.argument("scenario_name", metavar="SCENARIO")
@click.option("--seat", "--side", "sides", multiple=True, required=True,
              help="SEAT=me or SEAT=player.id.toml, one per seat (in a two-player game the seats are the sides).")
@click.option("--dice", type=click.Choice(["sealed", "immediate"]), default="sealed", show_default=True, help=DICE_HELP)
@click.option("--option", "options", multiple=True, help="Rule option NAME=VALUE.")
@click.option("--message", default="", help="A short note to your opponent.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def new(scenario_name: str, sides: tuple[str, ...], dice: str, options: tuple[str, ...], message: str, out_dir: Path) -> None:
    """Create a game.  Example: pbem new avd/practice --seat german=me --seat soviet=pavel.id.toml"""
    import os

    from pbem import cycle, games, scenario, session
    from pbem.render.turnlog import turn_log

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
    game_id = f"{game.id}-{os.urandom(6).hex()}"
    gf = cycle.new_game(game_id=game_id, game=game.id, scenario_name=head["id"], scenario=data, options=opts,
                           dice=dice, creator=me, creator_side=mine[0], invited=invited, message=message)
    m = cycle.replay(gf, data, me)
    path, log = session.write_outputs(gf, m, turn_log(m, m.records), out_dir)
    opp = ", ".join(f"{i.name} <{i.email}> ({s})" for s, i in invited.items())
    click.echo(f"Game {game_id} created: {path}")
    click.echo(f"Send it to {opp}: `pbem mail {path}` makes the email. Each runs `pbem join` on it in turn.")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--yes", is_flag=True, help="Join without asking for confirmation.")
@click.option("--message", default="", help="A short note to your opponent.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def join(file: Path, yes: bool, message: str, out_dir: Path) -> None:
    """Join a game you were invited to (shows it first)."""
    from pbem import cycle, session

    me = _me()
    loaded = session.open_game(file, me)
    m = loaded.match
    side = next((s for s, i in m.header.get("invited", {}).items() if i.get("sign_pub") == me.public.sign_pub), None)
    if side is None:
        raise UsageError("this game did not invite your key")
    if side in m.seats:
        raise UsageError(f"already joined: you play {side} in this game")
    click.echo(f"Game {m.game_id}: {m.game.title}, scenario {m.header['scenario']}")
    team = "" if m.side_of(side) == side else f" for {m.side_of(side)}"
    click.echo(f"You play {side}{team}")
    for seat, player in m.seats.items():
        click.echo(f"{player.identity.name} <{player.identity.email}> plays {seat}, "
                   f"fingerprint {player.identity.fingerprint}")
    click.echo(f"Dice timing: {m.timing}")
    click.echo("Rule options:" if m.header.get("options") else "Rule options: none")
    for name, value in (m.header.get("options") or {}).items():
        click.echo(f"  {name} = {value}")
    if not yes and not click.confirm("Join this game?", default=True):
        raise UsageError("not joined; nothing written")
    done = session.append_and_write(loaded, cycle.join_exchange(m, me, side, message), me, out_dir)
    path, m2 = done.path, done.match
    click.echo(f"Joined as {side}: {path}")
    if m2.next_sender() == side:
        click.echo(f"You move first: run `pbem play {path}`.")
    else:
        click.echo(f"Send it back: `pbem mail {path}`.")


# ----------------------------------------------------------------------- play


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--orders", "orders_file", type=click.Path(path_type=Path),
              help="Play non-interactively from an orders TOML file (orders = [\"...\"], message, [policies]).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--scenario", "scenario_override", help="Use this scenario file (its SHA-256 must match the game's).")
def play(file: Path, orders_file: Path | None, out_dir: Path, scenario_override: str | None) -> None:
    """Verify the file (or a saved .eml), show what the opponent did, and
    play your part: interactively, or from --orders."""
    from pbem import cycle, session
    from pbem.render.turnlog import record_lines, turn_log

    me = _me()
    loaded = session.open_game(file, me, scenario=scenario_override)
    mine = session.already_answered(loaded.gf, loaded.match.me)
    if mine is not None:
        m_local = cycle.replay(mine, loaded.scenario, me)
        k = len(loaded.gf.exchanges)
        path, _ = session.write_outputs(mine, m_local, turn_log(m_local, m_local.records[k:]), out_dir)
        click.echo(f"You already answered this file (exchange {len(mine.exchanges)}): the file to send is {path}")
        return
    session.compare_with_local(loaded.gf)
    session.keep_version(session.refresh_reading_copies(loaded.gf, loaded.match))
    m = loaded.match
    if m.me is None:
        raise UsageError("your key is not a player of this game")
    last = m.records[-1]
    if last.side != m.me:
        click.echo("\n".join(record_lines(m, last)))
    if not m.joined():
        raise UsageError(f"waiting for {m.next_sender()} to join; nothing to play yet")
    if m.next_sender() != m.me:
        click.echo(f"Nothing to do: waiting for {m.next_sender() or 'nobody (game over)'}.")
        return
    turn = cycle.Turn(m, me)
    if orders_file is not None:
        _play_from_file(turn, orders_file)
    else:
        _play_interactive(turn, m)
    done = session.append_and_write(loaded, turn.finish(), me, out_dir)
    m2, path = done.match, done.path
    click.echo(done.log)
    click.echo(f"Written {path} and the turn log {done.log_path}.")
    if m2.over():
        click.echo("The game is over: both players may now run `pbem audit` on the last file.")
    else:
        click.echo(f"Send it to {m2.next_sender()}: `pbem mail {path}`.")


def _play_from_file(turn: Any, path: Path) -> None:
    from pbem import scenario as scen
    from pbem.game import IllegalOrder

    data = scen.load_toml(path)
    orders = data.get("orders", [])
    if not isinstance(orders, list):
        raise UsageError(f"{path}: `orders` must be a list")
    turn.message = str(data.get("message", ""))
    policies = data.get("policies", {})
    items: list[Any] = [f"policy {k} {v}" for k, v in policies.items()] + list(orders)
    for k, item in enumerate(items, 1):
        if turn.done:
            raise UsageError(f"{path}: order {k} ({item}) comes after the exchange ended "
                             f"({'waiting for dice' if turn.how == 'deferred' else 'the decision passed to the opponent'}); nothing written")
        try:
            turn.push(item if isinstance(item, str) else dict(item))
        except IllegalOrder as exc:
            raise PbemError(f"order {k} ({item}): {exc}; nothing written") from None
    if not turn.done:
        d = turn.pending()
        opts = f"; options: {', '.join(d.options[:12])}" if d.options else ""
        raise UsageError(f"{path}: orders ran out while you must still decide: {d.prompt}{opts}; nothing written")


def _play_interactive(turn: Any, m: Any) -> None:
    from pbem.game import IllegalOrder

    console = _console()
    opening = turn.opening_lines()
    if opening:
        # The opponent's orders resolved by this program (their dice come
        # from our reveal) and what our standing orders answered.
        console.print("Resolved now, with your dice reveal:", style="bold")
        for line in opening:
            console.print(line, markup=False)
    _print_sitrep(console, m, turn.es["game"], m.me, turn.es["policies"])
    while not turn.done:
        d = turn.pending()
        # Orders contain brackets ("[stuka]"): print them as text, not markup.
        console.print(f"\n{d.prompt}", style="bold", markup=False)
        for i, opt in enumerate(d.options[:30], 1):
            console.print(f"  {i:2}. {opt}", markup=False)
        if len(d.options) > 30:
            console.print(f"  ... and {len(d.options) - 30} more (type the order)", markup=False)
        if d.hint:
            console.print(f"  ({d.hint})", markup=False)
        try:
            text = click.prompt("order (help for commands)", prompt_suffix="> ").strip()
        except click.exceptions.Abort:
            raise UsageError("interrupted; nothing written") from None
        if not text:
            continue
        if text == "help":
            console.print("number or order text | ? QUESTION (e.g. ? reach 7Pz) | undo | sitrep | "
                          "message TEXT | policy NAME VALUE | resign | offer-draw | quit")
            continue
        if text == "quit":
            raise UsageError("quit; nothing written")
        if text == "sitrep":
            _print_sitrep(console, m, turn.es["game"], m.me, turn.es["policies"])
            continue
        if text.startswith("message "):
            turn.message = text[8:].strip()
            continue
        try:
            if text == "undo":
                turn.undo()
                console.print("taken back")
                continue
            if text.startswith("?"):
                console.print(turn.query(text[1:].strip()), markup=False)
                continue
            if text.isdigit() and 1 <= int(text) <= len(d.options):
                text = d.options[int(text) - 1]
            try:
                order = turn.parse(text)
            except IllegalOrder as exc:
                # Not an order: perhaps a question asked without its "?"
                # (`reach 7Pz`, `odds 4121 with 7Pz`).
                try:
                    console.print(turn.query(text), markup=False)
                except IllegalOrder:
                    raise exc from None
                continue
            for ev in turn.push(order):
                console.print(f"  - {ev.text}", markup=False)
        except IllegalOrder as exc:
            console.print(f"refused: {exc}", style="red", markup=False)
    if turn.how == "deferred":
        console.print("Your order waits for the opponent's dice: his program resolves it.")
    if not click.confirm("Sign and write this exchange?", default=True):
        raise UsageError("not signed; nothing written")


def _print_sitrep(console: Any, m: Any, state: dict[str, Any], side: str | None,
                  policies: dict[str, dict[str, Any]] | None = None) -> None:
    console.print(m.rules.sitrep(state, side))   # a practice game's sitrep says so itself
    for who, pols in sorted((policies if policies is not None else m.es.get("policies", {})).items()):
        if not pols:
            continue
        if who == side:
            console.print(f"Your standing orders: {', '.join(f'{k} = {v}' for k, v in sorted(pols.items()))}")
        else:
            # The opponent's program applies them; the opponent is shown only that they exist.
            console.print(f"{who}: policy set ({len(pols)} standing order{'s' if len(pols) > 1 else ''})")


# ------------------------------------------------------------ reading a game


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--scenario", "scenario_override")
def verify(file: Path, scenario_override: str | None) -> None:
    """Replay the whole game; exit 0 if valid, 1 with the reason if not."""
    me = _me(required=False)
    loaded = _open_with_progress(file, me, scenario_override)
    m = loaded.match
    rolls = sum(len(r.rolls) for r in m.records)
    click.echo(f"valid: {len(m.exchanges)} exchanges, {rolls} rolls recomputed; {m.who_acts()}")


def _open_with_progress(file: Path, me: Any, scenario: str | None = None, audit: bool = False) -> Any:
    from pbem import session
    from pbem.protocol import gamefile

    gf = session.load_game(file)
    if len(gf.exchanges) < 200 or not sys.stderr.isatty():
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("verifying", total=len(gf.exchanges))
        return session.open_game(file, me, scenario=scenario, audit=audit, gf=gf,
                                 progress=lambda i, n: bar.update(task, completed=i))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--side", help="Whose view (default: yours; a bystander sees the public view).")
def sitrep(file: Path, side: str | None) -> None:
    """Situation report: map, units, what is pending for whom."""
    me = _me(required=False)
    loaded = _open_with_progress(file, me)
    m = loaded.match
    view = side or m.me
    if view is not None and view != m.me:
        raise UsageError("you may only see your own side's view (or the public one)")
    console = _console()
    console.print(f"[bold]{m.game.title}[/bold] - game {m.game_id} - {m.who_acts()}")
    _print_sitrep(console, m, m.state, view)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--last", "last", type=int, default=0, help="Only the last N exchanges.")
def log(file: Path, last: int) -> None:
    """The human-readable record of the game."""
    from pbem.render.turnlog import turn_log

    m = _open_with_progress(file, _me(required=False)).match
    records = m.records[-last:] if last else m.records
    click.echo(turn_log(m, records), nl=False)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
def dice(file: Path) -> None:
    """Every roll and draw of the game, recomputed from the chain reveals."""
    from pbem.cycle import iter_rolls

    m = _open_with_progress(file, _me(required=False)).match
    count = 0
    for n, side, roll in iter_rolls(m):
        count += 1
        result = roll.get("item", roll["result"]) if roll["op"] == "draw" else roll["result"]
        click.echo(f"exchange {n:4} ({side}) stream {n} value {roll['pos']:3}: {roll['purpose']}: {roll['op']} -> {result}")
    click.echo(f"{count} rolls and draws, each recomputed from both players' reveals: all match.")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def audit(file: Path, out_dir: Path) -> None:
    """At game end: disclose your secrets (first run), or, once both players
    have, replay the whole game with nothing hidden."""
    from pbem import cycle, session

    me = _me()
    loaded = session.open_game(file, me)
    m = loaded.match
    disclosed = {ex["side"] for ex in m.exchanges if ex["kind"] == "disclose"}
    if set(m.seat_names) <= disclosed:
        full = session.open_game(file, None, audit=True)
        n = len(full.match.exchanges)
        click.echo(f"audit: no discrepancy in {n} exchanges; {full.match.result()}")
        return
    if m.me in disclosed:
        raise UsageError(f"you have disclosed; waiting for {', '.join(sorted(set(m.seat_names) - disclosed))}")
    path = session.append_and_write(loaded, cycle.disclose_exchange(m, me), me, out_dir).path
    click.echo(f"Your secrets are disclosed in {path}; send it on. When both have disclosed, `pbem audit` replays everything.")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "to", type=int, help="Offer to take the game back to the state after exchange N.")
@click.option("--accept", is_flag=True, help="Accept the open offer.")
@click.option("--decline", is_flag=True, help="Decline the open offer (signed, like an acceptance).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def rewind(file: Path, to: int | None, accept: bool, decline: bool, out_dir: Path) -> None:
    """Take back a misclick: one player offers (in or out of turn), every
    other player accepts (or one declines).  The signatures and the undone
    exchanges stay in the record."""
    from pbem import cycle, session

    if [to is not None, accept, decline].count(True) != 1:
        raise UsageError("give one of --to N (offer), --accept or --decline")
    me = _me()
    loaded = session.open_game(file, me)
    ex = cycle.rewind_exchange(loaded.match, me, to, decline=decline)
    path = session.append_and_write(loaded, ex, me, out_dir).path
    what = "Rewind offered" if to is not None else ("Rewind declined" if decline else "Rewind accepted")
    click.echo(f"{what}: {path}; send it on (`pbem mail {path}`).")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "recipient", help="Recipient address (default: every other seat's player).")
@click.option("--send", is_flag=True, help="Send it by SMTP (configured in $PBEM_HOME/smtp.toml or --smtp).")
@click.option("--smtp", "smtp_file", type=click.Path(path_type=Path), help="SMTP settings file ([smtp] host, port, sender...).")
def mail(file: Path, recipient: str | None, send: bool, smtp_file: Path | None) -> None:
    """Make an .eml with the turn log as body and the game file attached."""
    from pbem import mail as mailmod, session
    from pbem.protocol import gamefile
    from pbem.render.turnlog import turn_log

    me = _me()
    loaded = session.open_game(file, me)
    m = loaded.match
    recipients = [recipient] if recipient else session.recipients(m)
    if not recipients:
        raise UsageError("no recipient: give --to")
    to = ", ".join(recipients)
    body = turn_log(m, m.records[-1:])
    subject = f"[pbem] {m.game.title} {m.game_id}: exchange {len(m.exchanges)}"
    sender = mailmod.address(me.public.name, me.public.email)
    eml = mailmod.compose_eml(file, body, sender=sender, recipient=to, subject=subject, game_id=m.game_id)
    out = file.with_suffix(".eml")
    gamefile.atomic_write(out, eml)
    click.echo(f"Email written: {out} (to {to})")
    if send:
        cfg = mailmod.load_smtp_config(smtp_file or session.home() / "smtp.toml")
        mailmod.send(cfg, eml, [mailmod.bare_address(r) for r in recipients])
        click.echo(f"Sent to {to} via {cfg.host}:{cfg.port}")


@main.command()
@click.argument("game", required=False, default="avd")
@click.option("--exchanges", default=8, show_default=True, help="How many exchanges to play.")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), help="Keep the demo folder here.")
def demo(game: str, exchanges: int, keep: Path | None) -> None:
    """A scripted game between two generated players in a temporary folder:
    each exchange's turn log and sitreps, then a full verify."""
    from pbem import demo as demomod

    demomod.run(game, exchanges, keep, echo=click.echo, console=_console())


if __name__ == "__main__":  # pragma: no cover
    main()
