"""``pbem play``: verify, show, decide, write the next exchange."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli import policyprompt
from pbem.cli.planprompt import OPEN_PLAN_WORDS
from pbem.cli.base import _console, _me, _message
from pbem.errors import PbemError, UsageError

ANSWERS_YES = ("y", "yes", "")
ANSWERS_NO = ("n", "no")


@click.command()
@click.argument("file", metavar="[FILE|GAME]", type=click.Path(path_type=Path), required=False)
@click.option("--orders", "orders_file", type=click.Path(path_type=Path),
              help="Play non-interactively from an orders TOML file (orders = [\"...\"], message, [policies]).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--scenario", "scenario_override", help="Use this scenario file (its SHA-256 must match the game's).")
def play(file: Path, orders_file: Path | None, out_dir: Path, scenario_override: str | None) -> None:
    """Verify the file (or a saved .eml), show what the opponent did, and
    play your part: interactively, or from --orders."""
    from pbem import cycle, journal, session
    from pbem.render.turnlog import record_lines

    me = _me()
    if file is None or not file.exists():      # no argument: the game waiting for you; GAME: its newest kept file
        from pbem.cli.mailbox import game_to_play
        file = game_to_play(file, me)
    loaded = session.open_game(file, me, scenario=scenario_override, cached=True)
    if loaded.match.me is None:     # before anything is kept: a stranger's file never reaches $PBEM_HOME
        raise UsageError("your key is not a player of this game")
    mine = session.already_answered(loaded.gf, loaded.match.me)
    if mine is not None:
        m_local = cycle.replay(mine, loaded.scenario, me)
        k = len(loaded.gf.exchanges)
        path, _ = session.write_outputs(mine, m_local, session.turn_log(m_local, m_local.records[k:]), out_dir)
        click.echo(f"You already answered this file (exchange {len(mine.exchanges)}): the file to send is {path}")
        return
    session.compare_with_local(loaded.gf)
    session.keep_version(session.refresh_reading_copies(loaded.gf, loaded.match))
    m = loaded.match
    if _rewind_offered_to_me(m, file):
        return
    last = m.records[-1]
    if last.side != m.me:
        click.echo(session.clean_text("\n".join(record_lines(session.log_heading(m), last))))
    if not m.joined():
        raise UsageError(f"waiting for {m.next_sender()} to join; nothing to play yet")
    if m.next_sender() != m.me:
        click.echo(f"Nothing to do: {m.who_acts()}.")
        return
    base = cycle.exchange_hash(m.exchanges[-1])
    kept = journal.load(m.game_id, len(m.exchanges) + 1, base, m.me or "")
    if kept is not None:
        turn = cycle.Turn(m, me, resume=kept.orders, openings=kept.openings, answers=kept.answers)
        turn.message = kept.message
        given = f"{len(kept.orders)} orders given before are" if len(kept.orders) != 1 else "1 order given before is"
        click.echo(f"Resuming the exchange you began: its {given} pushed again, with the same dice "
                   f"(kept in {journal.path_for(m.game_id, turn.n)}: a roll once shown stands).")
    else:
        turn = cycle.Turn(m, me)
    if orders_file is not None:
        if kept is not None:
            click.echo("The orders of the orders file follow them.")
        _play_from_file(turn, orders_file)
    else:
        _play_interactive(turn, m)
    done = session.append_and_write(loaded, turn.finish(), me, out_dir)
    journal.clear(m.game_id, turn.n)
    m2, path = done.match, done.path
    click.echo(done.log)
    click.echo(f"Written {path} and the turn log {done.log_path}.")
    if m2.over():
        click.echo("The game is over: both players may now run `pbem audit` on the last file.")
    else:
        click.echo(f"Send it to {m2.next_sender()}: `pbem mail {path}`.")


def _rewind_offered_to_me(m: Any, file: Path) -> bool:
    """An open rewind offer this seat must answer is shown before anything
    else, and nothing is played: the exchange would resolve dice that belong
    to the exchanges the offer would undo, and show their results."""
    offer = m.rewind_offer
    if not offer or offer["by"] == m.me or m.me in offer["agreed"]:
        return False
    to, n = offer["to"], len(m.exchanges)
    undone = n - 1 - to      # the offer itself is exchange n
    click.echo(f"{offer['by']} offers a rewind: back to the state after exchange {to}, undoing "
               f"{'exchange' if undone == 1 else 'exchanges'} {to + 1}"
               f"{'' if undone == 1 else f' to {n - 1}'}.")
    click.echo(f"Answer it first: `pbem rewind {file} --accept` or `pbem rewind {file} --decline`. "
               "Nothing is played or shown of those exchanges' dice until then.")
    return True


def _play_from_file(turn: Any, path: Path) -> None:
    from pbem import ordersfile
    from pbem.game import IllegalOrder

    try:
        given = ordersfile.load(path)       # orders texts, message, [policies]: nothing else
    except UsageError as exc:
        text = str(exc)
        raise UsageError(text if "orders file" in text else f"orders file {text}") from None
    if given.message:
        turn.message = _message(given.message, f"{path}: `message`")
    for k, item in enumerate(given.items(), 1):
        if turn.done:
            raise UsageError(f"{path}: order {k} ({item}) comes after the exchange ended "
                             f"({'waiting for dice' if turn.how == 'deferred' else f'the decision passed to {turn.waiting_for()}'}); nothing written")
        try:
            turn.push(item)
        except IllegalOrder as exc:
            raise PbemError(f"order {k} ({item}): {exc}; nothing written") from None
    if not turn.done:
        d = turn.pending()
        opts = f"; options: {', '.join(d.options[:12])}" if d.options else ""
        raise UsageError(f"{path}: orders ran out while you must still decide: {d.prompt}{opts}; nothing written")


class _Prompt:
    """The interactive exchange: one typed line at a time, each answered
    where it was typed (a line is never taken for the answer to a question
    the player has not seen yet)."""

    def __init__(self, turn: Any, m: Any) -> None:
        self.turn, self.m = turn, m
        self.console = _console()
        self.journalled = turn.locked > 0
        self._answered_by_policy = False   # the last command's push: a standing order of ours answered
        self._hold_sign = False            # a standing order set at the prompt completed the exchange
        self.planned: list[Any] = []       # orders added to the plan being written (sealed dice)

    def echo(self, text: str, **kw: Any) -> None:
        self.console.print(text, markup=False, **kw)

    def run(self) -> None:
        turn = self.turn
        opening = turn.opening_lines()
        if opening:
            # The opponent's orders resolved by this program (their dice come
            # from our reveal), what the standing orders answered, and (a
            # resumed exchange) the orders given before.
            head = "So far in this exchange:" if turn.orders else "Resolved now, with your dice reveal:"
            self.console.print(head, style="bold")
            for line in opening:
                self.echo(line)
        _print_sitrep(self.console, self.m, turn.es["game"], self.m.me, turn.es["policies"])
        ask_sign = turn.done
        while True:
            if turn.done and ask_sign:
                ask_sign = False
                if turn.how == "deferred":
                    self.echo(f"Your order waits for {turn.waiting_for()}'s dice: that program resolves it.")
                if self._confirm():
                    return
                self.echo("Not signed: your orders are kept. `sign` signs and writes the exchange, `undo` takes "
                          "back your last order, `quit` leaves (nothing written).")
            text = self._read()
            if not text:
                continue
            # At a complete exchange "y" signs too: the same answer as the
            # sign question's, whichever of the two the player met.
            if text == "sign" or (turn.done and text.lower() in ("y", "yes")):
                if turn.done:
                    return
                self.refuse("the exchange is not complete yet: decide first")
                continue
            was_done = turn.done
            self._command(text)
            if turn.done and not was_done:
                # A standing order that answered the pending decision ended
                # the exchange the player was still typing orders for: his
                # next line stays an order-prompt line, not a y/n answer.
                ask_sign = not self._hold_sign
            self._keep_journal()

    def _confirm(self) -> bool:
        """Sign and write?  y (or Enter) or n; any other line is refused
        and the question asked again."""
        while True:
            try:
                answer = click.prompt("Sign and write this exchange? [Y/n]", default="y", show_default=False,
                                      prompt_suffix=" ").strip().lower()
            except click.exceptions.Abort:
                raise UsageError("interrupted; nothing written") from None
            if answer in ANSWERS_YES:
                return True
            if answer in ANSWERS_NO:
                return False
            if answer.split()[:1] == ["policy"]:
                self.refuse("the exchange is complete: set the standing order in your next one; to "
                            "have it answer in this one, answer n, `undo` your last order, set it, then answer again")
                continue
            self.refuse(f"{answer!r} is not an answer to this question: y signs and writes the exchange, "
                        "n goes back to your orders")

    def _read(self) -> str:
        turn = self.turn
        d = turn.pending()
        if d is not None:
            # Orders contain brackets ("[stuka]"): print them as text, not markup.
            self.console.print(f"\n{d.prompt}", style="bold", markup=False)
            for i, opt in enumerate(d.options[:30], 1):
                self.echo(f"  {i:2}. {opt}")
            if len(d.options) > 30:
                self.echo(f"  ... and {len(d.options) - 30} more (type the order)")
            if d.hint:
                self.echo(f"  ({d.hint})")
            policyprompt.standing_order_hint(self, d)
        else:
            self.echo("\nThe exchange is complete: `sign` signs and writes it, `undo` takes back your last order, "
                      "`quit` leaves (nothing written).")
        try:
            return str(click.prompt("order (help for commands)", prompt_suffix="> ")).strip()
        except click.exceptions.Abort:
            raise UsageError("interrupted; nothing written") from None

    def refuse(self, why: str) -> None:
        self.console.print(f"refused: {why}", style="red", markup=False)

    def _command(self, text: str) -> None:
        from pbem.game import IllegalOrder

        turn, m = self.turn, self.m
        self._answered_by_policy = self._hold_sign = False
        d = turn.pending()
        if text == "help":
            ask = f"? QUESTION ({d.hint})" if d is not None and d.hint else "? QUESTION"
            self.echo(f"number or order text | {ask} | undo | sitrep | message TEXT | policy NAME [VALUE] | "
                      "resign | offer-draw | plan / plan done / plan clear (sealed dice, at a decision that may be planned) | "
                      "sign (once the exchange is complete) | quit")
            return
        if text == "quit":
            raise UsageError("quit; nothing written" + ("" if not turn.locked else
                                                         " (the orders whose dice you saw are kept for your next `pbem play`)"))
        if text == "sitrep":
            _print_sitrep(self.console, m, turn.es["game"], m.me, turn.es["policies"])
            return
        if text == "message" or text.startswith("message "):
            try:
                turn.message = _message(text[8:], "message")
            except UsageError as exc:
                self.refuse(str(exc))
                return
            self.echo("message set" if turn.message else "message cleared")
            return
        try:
            if text == "undo":
                turn.undo()
                self.echo("taken back")
                return
            if text.startswith("?"):
                self.echo(turn.query(text[1:].strip()))
                return
            words = text.split()
            if words[0].lower() == "policy":
                policyprompt.policy_command(self, words)
                return
            if text.lower() in ("plan", "plan done", "plan clear") or (
                    self.planned and text.lower() in OPEN_PLAN_WORDS):
                self._plan_command(text.lower())
                return
            numbered = 0
            if text.isdigit():
                if turn.done:
                    raise IllegalOrder("the exchange is complete: nothing more can be ordered in it")
                k = int(text)
                if d is None or not d.options:
                    raise IllegalOrder("there is no numbered choice here; type the order")
                if not 1 <= k <= len(d.options):
                    raise IllegalOrder(f"there is no choice {k}: choose 1 to {len(d.options)}")
                text, numbered = d.options[k - 1], k
            if turn.done:
                raise IllegalOrder("the exchange is complete: nothing more can be ordered in it "
                                   "(`sign`, `undo` or `quit`)")
            try:
                order = turn.parse(text)
            except IllegalOrder as exc:
                if numbered:
                    # A listed option that is no order is a pattern to fill in.
                    raise IllegalOrder(f"choice {numbered} is a pattern, not an order: type it with your own "
                                       f"names in place of the capitals: {text}"
                                       + (f" ({d.hint})" if d is not None and d.hint else "")) from None
                # Not an order: perhaps a question asked without its "?"
                # (`reach 7Pz`, `odds 4121 with 7Pz`).
                try:
                    self.echo(turn.query(text))
                except IllegalOrder:
                    raise exc from None
                return
            if self._warned(order):
                return
            if self._planned(order):
                return
            self._push(order)
        except IllegalOrder as exc:
            self.refuse(str(exc))

    def _planned(self, order: Any) -> bool:
        from pbem.cli.planprompt import offer_plan
        return offer_plan(self, order)

    def _plan_command(self, text: str) -> None:
        from pbem.cli.planprompt import plan_command
        plan_command(self, text)

    def _warned(self, order: Any) -> bool:
        """Before an order that the rules flag (a move whose automatic path
        overruns an HQ, after which the decision may pass to the opponent),
        say so and ask; True when the player held the order back."""
        events, how = self.turn.preview(order)
        warnings = [ev.text for ev in events if ev.data.get("warn")]
        if not warnings:
            return False
        for text in warnings:
            self.echo(f"  note: {text}")
        if how != "open":
            self.echo("  after it the decision passes to another player: this exchange would end there")
        try:
            go = click.confirm("Give this order?", default=False)
        except click.exceptions.Abort:
            raise UsageError("interrupted; nothing written") from None
        if not go:
            self.echo("not given")
        return not go

    def _push(self, order: Any) -> list[Any]:
        turn = self.turn
        entries = len(turn.sink.entries)
        events = turn.push(order)
        for ev in events:
            self.echo(f"  - {ev.text}")
        for e in turn.sink.entries[entries:]:
            if e.get("by") != "policy":
                continue
            whose = "your" if e["side"] == turn.side else f"{e['side']}'s"
            self.echo(f"  ({whose} standing order answered: {self.m.rules.format(e['order'])})")
            if e["side"] == turn.side:
                self._answered_by_policy = True
        return events

    def _keep_journal(self) -> None:
        """Once a roll has been shown, the exchange is kept in $PBEM_HOME
        after every change: leaving and playing the file again resumes it."""
        from pbem import journal

        turn = self.turn
        if not turn.locked:
            return
        path = journal.save(journal.from_turn(turn))
        if not self.journalled:
            self.journalled = True
            self.echo(f"(dice shown: this exchange is kept in {path}; `undo` cannot go back past this roll, and "
                      "leaving without signing resumes it at your next `pbem play`)")


def _play_interactive(turn: Any, m: Any) -> None:
    _Prompt(turn, m).run()


def _print_sitrep(console: Any, m: Any, state: dict[str, Any], side: str | None,
                  policies: dict[str, dict[str, Any]] | None = None) -> None:
    from pbem.render.view import render_rich

    console.print(render_rich(m.rules.view(state, side)))   # a practice game's view says so itself
    es = {"policies": policies if policies is not None else m.es.get("policies", {}), "game": state}
    for who, pols in sorted(es["policies"].items()):
        if not pols:
            continue
        if who == side:
            # This program's own reader: his values, sealed ones included.
            mine = policyprompt.own_policies(es, side, m)
            console.print(f"Your standing orders: {', '.join(f'{k} = {v}' for k, v in sorted(mine.items()))}",
                          markup=False)
        else:
            # The opponent's program applies them; the opponent is shown only that they exist.
            console.print(f"{who}: policy set ({len(pols)} standing order{'s' if len(pols) > 1 else ''})")


# ------------------------------------------------------------ reading a game
