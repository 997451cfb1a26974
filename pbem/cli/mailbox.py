"""Playing several games by email: games, fetch, contacts, password."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli.base import _me
from pbem.errors import UsageError


@click.command()
@click.option("--json", "as_json", is_flag=True, help="The same list as JSON.")
def games(as_json: bool) -> None:
    """Every game in $PBEM_HOME: those waiting for you first, then those
    waiting for the others, then the finished ones."""
    from pbem import gamelist

    entries = gamelist.list_games(_me())
    if as_json:
        import json

        click.echo(json.dumps([e.as_json() for e in entries], indent=1, sort_keys=True))
        return
    if not entries:
        click.echo("No games yet: `pbem new` starts one, `pbem fetch` collects what you received.")
        return
    for line in gamelist.lines(entries):
        click.echo(line)
    waiting = sum(1 for e in entries if e.acts == gamelist.YOU)
    click.echo(f"{len(entries)} games, {waiting} waiting for you" + (": `pbem play GAME`" if waiting else ""))


@click.command()
@click.argument("sources", nargs=-1, type=click.Path(path_type=Path))
@click.option("--imap", "use_imap", is_flag=True,
              help="Also read the IMAP mailbox of $PBEM_HOME/imap.toml (the default when no SOURCE is given).")
@click.option("--imap-config", type=click.Path(path_type=Path), help="IMAP settings file instead of $PBEM_HOME/imap.toml.")
@click.option("--mark-seen", is_flag=True, help="Flag the messages dealt with as seen (IMAP, Maildir).")
@click.option("--all", "include_seen", is_flag=True, help="Read seen messages too, not only unseen ones.")
@click.option("--verbose", "-v", is_flag=True, help="List the files already held too.")
def fetch(sources: tuple[Path, ...], use_imap: bool, imap_config: Path | None, mark_seen: bool,
          include_seen: bool, verbose: bool) -> None:
    """Collect received game files from folders (.toml and .eml), Maildirs,
    mbox files or the IMAP mailbox; verify each and keep what is new, as
    `pbem play` would.  Nothing is deleted from a mailbox."""
    from pbem import imap, inbox

    use_imap = use_imap or imap_config is not None or not sources
    if not sources and imap_config is None and not imap.config_path().exists():
        raise UsageError(f"nothing to fetch from: name a folder, Maildir or mbox, or configure IMAP in "
                         f"{imap.config_path()}")
    me = _me()
    cfg = imap.load_config(imap_config) if use_imap else None     # a bad config stops before anything is read
    items: list[inbox.Item] = []
    for src in sources:
        items.extend(inbox.items_from_path(src, include_seen=include_seen))
    if cfg is None:
        report = inbox.check_and_store(items, me)
        marked = inbox.mark(items, report) if mark_seen else 0
    else:
        with imap.Mailbox(cfg, writable=mark_seen, include_seen=include_seen) as box:
            items.extend(box.items())
            report = inbox.check_and_store(items, me)
            marked = inbox.mark(items, report) if mark_seen else 0
    _print_report(report, marked, verbose)


def _print_report(report: object, marked: int, verbose: bool) -> None:
    from pbem import inbox
    from pbem.cli.base import _one_line

    assert isinstance(report, inbox.Report)

    def echo(text: str) -> None:        # names and reasons from files: one plain line each
        click.echo(_one_line(text))

    quiet = (inbox.HELD, inbox.OLD)
    for o in report.outcomes:
        if o.status in quiet and not verbose:
            continue
        origin = inbox.safe_origin(o.origin)
        if o.status == inbox.STORED:
            mark = "  <- your move: `pbem play " + o.game_id + "`" if o.yours else ""
            echo(f"stored {o.game_id} exchange {o.exchange} (from {origin}): {o.text}{mark}")
        else:
            game = f"{o.game_id} exchange {o.exchange}" if o.game_id else "-"
            echo(f"{o.status}: {game} (from {origin}): {o.text}")
    held = report.count(*quiet)
    stored = report.count(inbox.STORED)
    refused = report.count(inbox.FORK, inbox.INVALID, inbox.UNKNOWN, inbox.STRANGER)
    parts = [f"{stored} stored"]
    if held:
        parts.append(f"{held} already held" + ("" if verbose else " (-v lists them)"))
    if report.count(inbox.INVITATION):
        parts.append(f"{report.count(inbox.INVITATION)} invitations")
    if refused:
        parts.append(f"{refused} refused, kept nowhere")
    if marked:
        parts.append(f"{marked} flagged seen")
    click.echo("fetch: " + ", ".join(parts))


# ------------------------------------------------------------------ contacts


@click.group(name="contacts")
def contacts_group() -> None:
    """Your opponents' public identities, kept by name in $PBEM_HOME."""


@contacts_group.command("add")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "name", help="The contact's name (default: from the identity's name, e.g. pavel).")
@click.option("--yes", is_flag=True, help="Keep it without asking (you checked the fingerprint).")
def contacts_add(file: Path, name: str | None, yes: bool) -> None:
    """Keep an opponent's identity file; `pbem new --seat soviet=pavel`
    then names him."""
    from pbem import contacts
    from pbem.protocol import identity

    ident = identity.load_public(file)
    if name is None:
        found = contacts.known_as(ident)
        name = found[0] if found else contacts.slug(ident.name)
    contacts.check_name(name)
    kept = contacts.load(name)
    if kept is None or kept.sign_pub != ident.sign_pub:
        contacts.check(ident, str(file))        # a known person with another key: refused before asking
        if kept is not None:
            raise contacts.changed(name, kept, ident, str(file))
        click.echo(f"{ident.name} <{ident.email}>: fingerprint {ident.fingerprint}")
        if not yes and not click.confirm(f"Is this {ident.name}'s fingerprint (read it to each other)?", default=False):
            raise UsageError("not kept; nothing written")
    name, ident, new = contacts.add(file, name)
    click.echo(f"Contact {name}: {ident.name} <{ident.email}>, fingerprint {ident.fingerprint}"
               + ("" if new else " (already kept)"))


@contacts_group.command("list")
def contacts_list() -> None:
    """Your contacts with their fingerprints."""
    from pbem import contacts

    kept = contacts.all_contacts()
    if not kept:
        click.echo("No contacts yet: `pbem contacts add FILE.id.toml`.")
    for name, ident in kept.items():
        click.echo(f"{name:16} {ident.name} <{ident.email}>  {ident.fingerprint}")


@contacts_group.command("accept")
@click.argument("name")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--yes", is_flag=True, help="Accept without asking.")
def contacts_accept(name: str, file: Path, yes: bool) -> None:
    """Accept a contact's new key (after checking its fingerprint with him);
    the old one is kept in contacts/replaced/."""
    from pbem import contacts
    from pbem.protocol import identity

    kept = contacts.load(contacts.check_name(name))
    if kept is None:
        raise UsageError(f"no contact {name!r} (`pbem contacts list`)")
    new = identity.load_public(file)
    click.echo(f"{name}: kept key {kept.fingerprint}, new key {new.fingerprint} ({new.name} <{new.email}>)")
    if not yes and not click.confirm(f"Replace {name}'s key by the new one?", default=False):
        raise UsageError("not accepted; nothing written")
    contacts.accept(name, file)
    click.echo(f"Contact {name} now has the key {new.fingerprint}; the old one is in "
               f"{contacts.folder() / 'replaced'}")


# ------------------------------------------------------------------ passwords


@click.group(name="password")
def password_group() -> None:
    """Mail passwords in the system keyring (never in a file)."""


def _account(kind: str, config: Path | None) -> tuple[str, str, str]:
    from pbem import imap, session
    from pbem import mail as mailmod

    if kind == "smtp":
        cfg = mailmod.load_smtp_config(config or session.home() / "smtp.toml")
        if cfg.username is None:
            raise UsageError("the SMTP config has no username: its server takes no password")
        return "pbem-smtp", f"{cfg.username}@{cfg.host}", cfg.host
    icfg = imap.load_config(config)
    return "pbem-imap", f"{icfg.user}@{icfg.host}", icfg.host


@password_group.command("set")
@click.argument("kind", type=click.Choice(["smtp", "imap"]))
@click.option("--config", type=click.Path(path_type=Path), help="The settings file (default: $PBEM_HOME/smtp.toml or imap.toml).")
def password_set(kind: str, config: Path | None) -> None:
    """Store the SMTP or IMAP password in the system keyring (asked at the
    terminal, or read from standard input)."""
    from pbem import credentials

    service, account, _ = _account(kind, config)
    if sys.stdin.isatty():
        secret = click.prompt(f"{kind.upper()} password for {account}", hide_input=True)
    else:
        secret = sys.stdin.readline().rstrip("\r\n")
    if not secret:
        raise UsageError("no password given; nothing stored")
    backend = credentials.keyring_set(service, account, secret)
    click.echo(f"Stored in the keyring ({backend}) as {service} / {account}")


@password_group.command("forget")
@click.argument("kind", type=click.Choice(["smtp", "imap"]))
@click.option("--config", type=click.Path(path_type=Path))
def password_forget(kind: str, config: Path | None) -> None:
    """Remove the SMTP or IMAP password from the system keyring."""
    from pbem import credentials

    service, account, _ = _account(kind, config)
    if not credentials.keyring_delete(service, account):
        raise UsageError(f"the keyring holds no {service} password for {account}")
    click.echo(f"Removed {service} / {account} from the keyring")


# ------------------------------------------------------------- naming a game


def _looks_like_path(arg: Path) -> bool:
    text = str(arg)
    return "/" in text or "\\" in text or arg.suffix.lower() in (".toml", ".eml", ".txt")


def game_to_play(arg: Path | None, me: object) -> Path:
    """``pbem play`` without a file: the one game waiting for you (the list
    when several are); ``pbem play GAME``: that game's newest kept file."""
    from pbem import gamelist

    if arg is not None:
        if _looks_like_path(arg):
            return arg          # a missing file: `play` says so as it always has
        return gamelist.newest_path(gamelist.resolve(str(arg)))
    waiting = [e for e in gamelist.list_games(me) if e.acts == gamelist.YOU]
    if not waiting:
        click.echo("No game waits for you (`pbem games` lists them; `pbem fetch` collects what you received).")
        sys.exit(0)
    if len(waiting) > 1:
        for line in gamelist.lines(waiting):
            click.echo(line)
        raise UsageError(f"{len(waiting)} games wait for you: name one, `pbem play GAME`")
    click.echo(f"Game {waiting[0].game_id} waits for you ({waiting[0].scenario}, exchange {waiting[0].exchange}).")
    return Path(waiting[0].path)


def game_to_mail(arg: Path, public: object) -> Path:
    """``pbem mail GAME``: the game's newest kept version, which must be
    your own exchange, written beside you as ``<game>-NNN.toml`` (the name
    `play` gives it) so that it travels under that name."""
    from pbem import gamelist, session
    from pbem.fsutil import atomic_write

    if _looks_like_path(arg):
        return arg
    game_id = gamelist.resolve(str(arg))
    stored = gamelist.newest_path(game_id)
    loaded = session.open_game(stored, None, cached=True)
    m = loaded.match
    mine = next((s for s, p in m.seats.items() if p.identity.sign_pub == getattr(public, "sign_pub", None)), None)
    if mine is None:
        raise UsageError("your key is not a player of this game")
    last = m.exchanges[-1]["side"]
    if last != mine:
        raise UsageError(f"the newest exchange of {game_id} ({len(m.exchanges)}) is {last}'s, not yours: "
                         f"nothing of yours to send (`pbem play {game_id}` first)")
    out = Path.cwd() / f"{session.file_stem(loaded.gf)}-{len(m.exchanges):03d}.toml"
    atomic_write(out, stored.read_bytes())
    return out


def invitation_to_join(arg: Path) -> Path:
    """``pbem join GAME``: the invitation ``pbem fetch`` kept for it."""
    from pbem import session

    if _looks_like_path(arg):
        return arg
    folder = session.home() / "invitations"
    found = sorted(p for p in folder.glob("*.toml") if str(arg) in p.stem) if folder.is_dir() else []
    games = {p.stem.rsplit("-", 1)[0] for p in found}
    if not found:
        raise UsageError(f"no invitation {str(arg)!r} in {folder} (`pbem fetch` collects them)")
    if len(games) > 1:
        raise UsageError(f"{str(arg)!r} names {len(games)} invitations ({', '.join(sorted(games)[:4])}): give more of the id")
    return found[-1]
