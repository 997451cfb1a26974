"""The ``pbem`` command: parse, call the library, print.  No rules here.

Every failure the user can cause ends in one line on stderr and a non-zero
exit (1 for an invalid file or illegal order, 2 for a usage error); nothing
is written unless the whole command succeeded.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from pbem import __version__
from pbem.cli.quick import help_width, load_me, one_line as _one_line, run_guarded
from pbem.errors import UsageError

try:
    from click.exceptions import NoSuchCommand as _NoSuchCommand
except ImportError:   # click before 8.4 suggests no names at all
    _NoSuchCommand = None  # type: ignore[assignment,misc]

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
        return run_guarded(lambda: super(Cli, self).invoke(ctx), click.echo,
                           (click.ClickException, click.exceptions.Exit, click.exceptions.Abort))


def _message(text: str, where: str = "--message") -> str:
    """A note to the opponent as typed: control characters taken out, at
    most the file format's limit (``schema.MESSAGE_LIMIT``, UsageError
    otherwise)."""
    from pbem.protocol.schema import MESSAGE_LIMIT as MAX_MESSAGE
    from pbem.session import clean_text

    text = clean_text(text).strip()
    if len(text) > MAX_MESSAGE:
        raise UsageError(f"{where}: the message has {len(text)} characters; at most {MAX_MESSAGE}")
    return text


# ------------------------------------------------------------------ commands

# Every command: its name, the module and attribute that define it, and its
# summary for the list `pbem --help` prints (the first sentence of its help,
# which click shortens to the terminal's width as it would the whole help).
# A command's module is imported only when that command runs (or its own
# --help is asked for): `pbem --help` and `pbem --version` import none of
# them.  tests/test_cli_startup.py keeps this table in step with the modules.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "audit": ("records", "audit",
              "At game end: disclose your secrets when it is your turn to (seats disclose in turn), and once "
              "every seat has, replay the whole game with nothing hidden."),
    "contacts": ("mailbox", "contacts_group", "Your opponents' public identities, kept by name in $PBEM_HOME."),
    "demo": ("records", "demo",
             "A scripted game between two generated players in a temporary folder: each exchange's turn log "
             "and sitreps, then a full verify."),
    "dice": ("records", "dice",
             "Every roll and draw of the game, recomputed from the chain reveals: each stream with the reveals "
             "that keyed it, each value with its purpose and position, each draw with the cup it was drawn from."),
    "fetch": ("mailbox", "fetch",
              "Collect received game files from folders (.toml and .eml), Maildirs, mbox files or the IMAP "
              "mailbox; verify each and keep what is new, as `pbem play` would."),
    "games": ("mailbox", "games",
              "Every game in $PBEM_HOME: those waiting for you first, then those waiting for the others, then "
              "the finished ones."),
    "join": ("setup", "join", "Join a game you were invited to (shows it first)."),
    "keygen": ("setup", "keygen",
               "Make your player identity: a private key file (mode 0600, in $PBEM_HOME) and a public identity "
               "file to email to opponents."),
    "log": ("records", "log", "The human-readable record of the game."),
    "mail": ("records", "mail",
             "Make an .eml with the turn log as body and the game file attached (and send it, with --send; run "
             "it again to retry a failed send)."),
    "map": ("maps", "map_command",
            "The whole map as your seat may see it: terrain, rivers, roads, places and victory marks, every "
            "stack you may see."),
    "new": ("setup", "new", "Create a game."),
    "password": ("mailbox", "password_group", "Mail passwords in the system keyring (never in a file)."),
    "play": ("play", "play",
             "Verify the file (or a saved .eml), show what the opponent did, and play your part: interactively, "
             "or from --orders."),
    "position": ("position", "position_command",
                 "Where the game stands, as a position file that `pbem new --position` starts a game from: the "
                 "public situation for a player; everything once every seat has disclosed its secrets at the "
                 "game's end (the audit)."),
    "replay": ("replay", "replay_command",
               "One self-contained HTML page stepping through every exchange as your seat saw it: the map after "
               "it, its turn log, its rolls and their purposes."),
    "rewind": ("records", "rewind",
               "Take back a misclick: one player offers (in or out of turn), every other player accepts (or one "
               "declines)."),
    "scenario": ("setup", "scenario_group", "Work with scenario files."),
    "scenarios": ("setup", "scenarios", "List the shipped scenarios: practice or published, and what is missing."),
    "sitrep": ("records", "sitrep", "Situation report: map, units, what is pending for whom."),
    "verify": ("records", "verify", "Replay the whole game; exit 0 if valid, 1 with the reason if not."),
}


class _Context(click.Context):
    def make_formatter(self) -> click.HelpFormatter:
        if self.terminal_width is None and click.formatting.FORCED_WIDTH is None:
            return self.formatter_class(width=help_width(self.max_content_width), max_width=self.max_content_width)
        return super().make_formatter()


class LazyCli(Cli):
    """The ``pbem`` group: lists its commands from :data:`COMMANDS` and
    imports a command's module only to run it."""

    context_class = _Context

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute, _summary = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"pbem.cli.{module}"), attribute)
        assert isinstance(command, click.Command), f"{module}.{attribute} is no click command"
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                              list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            # click 8.4+ suggests close names from the commands it holds: none
            # here until loaded, so the suggestion is made from the table.
            if _NoSuchCommand is None or not isinstance(exc, _NoSuchCommand):
                raise
            raise _NoSuchCommand(exc.command_name, possibilities=COMMANDS, ctx=ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands, each summary shortened as click shortens a
        command's help, without importing any command."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=COMMANDS[name][2]).get_short_help_str(limit))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyCli)
@click.version_option(version=__version__, package_name="pbem")
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
    return load_me(required, _ask_passphrase, click.echo)


# ------------------------------------------------------------------ identity


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
