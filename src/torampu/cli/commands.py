"""The terminal front end: ``torampu play``, ``torampu replay``, ``torampu rules``.

Built on the public contract only: the human sees ``view(seat)`` of their own seat, each bot its
own view, and the story of a replay is told from the record by replaying it step by step.

This module holds the commands and the play loop. What is shared by every game (cards on screen,
reading input, menus, trick lines, standings) is in :mod:`torampu.cli.show`; how each game looks
(Napoleon, Nap, Hell) is a renderer in :mod:`torampu.cli.games`; the words of the interface, in
English and Japanese, are in :mod:`torampu.cli.text`.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

import torampu
from torampu.bots import Bot, BotError, bot_kinds, make_bot, parse_bot_spec
from torampu.cli.games import Renderer, renderer_for
from torampu.cli.serve import serve
from torampu.cli.show import (
    MENU_MAX,
    Ctx,
    console,
    error,
    interpret,
    match_legal,
    menu,
    prettify,
    resolve_input,
    show_action,
    show_bid,
    show_card,
    show_cards,
    show_hand,
    show_suit,
)
from torampu.cli.text import TEXT
from torampu.cli.tournament import tournament
from torampu.cli.train import train_app
from torampu.cli.uecda import uecda_app
from torampu.cli.worker import worker
from torampu.daifugo import DaifugoMatch
from torampu.errors import CardError, IllegalAction, RecordError, TorampuError
from torampu.game import check_record_header
from torampu.tournament import deal_intervals

__all__ = [
    "MENU_MAX",
    "TEXT",
    "Ctx",
    "app",
    "console",
    "error",
    "interpret",
    "main",
    "match_legal",
    "prettify",
    "resolve_input",
    "show_action",
    "show_bid",
    "show_card",
    "show_cards",
    "show_hand",
    "show_suit",
]

app = typer.Typer(
    help="torampu: Japanese house-rule card games (Napoleon, Nap, Hell, Daifugo) in the terminal "
    "and the browser.",
    no_args_is_help=True,
    add_completion=False,
)


class Lang(StrEnum):
    en = "en"
    ja = "ja"


def print_all(items: Iterable[RenderableType]) -> None:
    """Print lines of markup and tables, one after the other."""
    for item in items:
        console.print(item)


# --------------------------------------------------------------------------------------- play
class _Leave(Exception):
    """The human left (EOF, 'quit' or Ctrl-C); ``key`` names the goodbye message."""

    def __init__(self, key: str, code: int = 0) -> None:
        super().__init__(key)
        self.key = key
        self.code = code


def _parse_rules(rules: str | None) -> str | dict[str, Any] | None:
    """``--rules``: a preset name, or a JSON object (``{"preset": "classic", "killers": true}``)."""
    if rules is None or not rules.strip().startswith("{"):
        return rules
    try:
        value = json.loads(rules)
    except json.JSONDecodeError as e:
        raise torampu.RulesError(f"--rules is not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise torampu.RulesError("--rules must be a preset name or a JSON object")
    return value


def _bot_seed(seed: int, seat: int) -> int:
    return seed * 100 + seat


def save_record(m: torampu.Match, path: Path | None, ctx: Ctx, quiet: bool = False) -> bool:
    """Write the match record (finished games and the game in progress) to ``path``.

    The file is replaced in one step, so an interruption never leaves half a record.
    """
    if path is None:
        return True
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(
            json.dumps(m.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        os.replace(tmp, path)
    except OSError as e:
        error(ctx.tx("save_failed", file=escape(str(path)), why=escape(e.strerror or str(e))))
        return False
    if not quiet:
        console.print(f"[dim]{ctx.tx('saved', file=escape(str(path)))}[/]")
    return True


def ask_human(g: torampu.Game, m: torampu.Match, r: Renderer) -> str:
    """Show the human's situation, read until a legal action, play it; return the action."""
    ctx = r.ctx
    seat = ctx.human
    assert seat is not None
    view = g.view(seat)
    legal = r.order(g.legal_actions())
    console.print()
    console.rule(f"[bold]{ctx.tx('your_turn', phase=ctx.phase(view['phase']))}[/]", align="left")
    secret = bool(view.get("adjutant_known")) and not g.view(None).get("adjutant_known")
    print_all(r.status_lines(view, secret))
    if len(legal) == 1:
        console.print(f"[dim]{ctx.tx('only_choice')}[/] {r.label(legal[0])}")
        m.play(legal[0])
        return legal[0]
    shown = r.menu_actions(legal, view)
    numbered = bool(shown)
    if numbered:
        title = r.menu_title(view)
        if title:
            console.print(title)
        console.print(menu(r.menu_entries(shown, view)))
    hint = r.menu_hint(view, legal, numbered)
    if hint:
        console.print(f"[dim]{hint}[/]")
    while True:
        try:
            line = console.input(f"[bold]{ctx.tx('prompt')}[/]")
        except EOFError:
            raise _Leave("bye_eof") from None
        word = line.strip().lower()
        if word in ("?", "help", "h"):
            console.print(ctx.tx("help"))
            continue
        if word in ("quit", "exit", "q"):
            raise _Leave("bye_quit")
        try:
            candidate = r.read(line, legal, view)
            action = match_legal(candidate, legal) or candidate
            m.play(action)  # an illegal action raises and leaves the match unchanged
        except (IllegalAction, CardError) as e:
            error(ctx.tx("illegal", why=escape(str(e))))
            continue
        return action


def bot_turn(g: torampu.Game, m: torampu.Match, seat: int, bot: Bot) -> str:
    """Let ``bot`` decide for ``seat`` from its own view, and play its action."""
    legal = g.legal_actions()
    action = bot.choose(g.view(seat), legal)
    if action not in legal:
        raise BotError(f"bot {bot.name!r} at seat {seat} chose {action!r}, which is not legal")
    m.play(action)
    return action


def announce_game(m: torampu.Match, g: torampu.Game, r: Renderer) -> None:
    """The header of a new game; a spectator also sees every hand (bots have no secrets)."""
    ctx = r.ctx
    console.print()
    console.rule(f"[bold]{r.header(g, m.games_played + 1, m.games_total)}[/]")
    print_all(r.intro_lines(g.view(ctx.human)))
    if ctx.human is None:
        print_all(r.deal_lines(g))


def run_match(m: torampu.Match, bots: Mapping[int, Bot], r: Renderer, record: Path | None) -> None:
    """Play the match to its end: the human at ``ctx.human`` (if any), bots elsewhere."""
    ctx = r.ctx
    current: torampu.Game | None = None
    while not m.is_over:
        g = m.game
        if g is not current:
            current = g
            announce_game(m, g, r)
        seat = g.to_play
        assert seat is not None
        before = g.view(ctx.human)
        human_turn = seat == ctx.human
        action = ask_human(g, m, r) if human_turn else bot_turn(g, m, seat, bots[seat])
        after = g.view(ctx.human)
        print_all(r.describe(before, after, seat, action))
        if ctx.human is None and after.get("redeals", 0) > before.get("redeals", 0):
            console.print(f"[bold]{ctx.tx('story_new_deal')}[/]")
            print_all(r.deal_lines(g))
        if g.is_over:
            show_game_over(r, g, m.games_played, m.games_total, list(m.totals), playing=True)
            if not m.is_over:
                print_all(r.after_game(m.standings()))
            save_record(m, record, ctx)
    st = m.standings()
    print_all(r.final(st))
    leaders = ctx.tx("leaders", who=ctx.seats(st["leaders"]), points=max(st["totals"]))
    console.print(f"[bold]{ctx.tx('match_over')} {leaders}[/]")


def show_game_over(
    r: Renderer,
    g: torampu.Game,
    no: int,
    total: int,
    totals: Sequence[int] | None,
    playing: bool = False,
) -> None:
    """The result of a finished game: in words, then the score table."""
    print_all(r.game_over(g.view(None), no, total, totals, playing))


@app.command()
def play(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="napoleon, nap or hell (daifugo: basic support)")
    ],
    rules: Annotated[
        str | None,
        typer.Option(help="a preset (see `torampu rules GAME`) or JSON: '{\"preset\": …, …}'"),
    ] = None,
    seat: Annotated[str, typer.Option(help="your seat 0..n-1, or 'none' to watch bots")] = "0",
    watch: Annotated[bool, typer.Option("--watch", help="watch bots only (= --seat none)")] = False,
    lang: Annotated[Lang, typer.Option(help="language of the table")] = Lang.en,
    games: Annotated[
        int | None,
        typer.Option(
            help="games in the match (Napoleon, Nap: 5; Hell: deals, the whole series 1..max..1)",
            min=1,
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="bot kind for the other seats (default: heuristic if it plays GAME, else random)"
        ),
    ] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of a reproducible match")] = None,
    record: Annotated[
        Path | None, typer.Option(help="save the match record (JSON) here after every game")
    ] = None,
) -> None:
    """Play a match in the terminal against bots (or watch bots play)."""
    ctx = Ctx(lang=lang.value, n=0)
    notice = ""
    try:
        if seed is None:
            seed = secrets.randbelow(10**9)  # short enough to type back with --seed
        m = torampu.new_match(
            game, rules=_parse_rules(rules), players=players, games=games, seed=seed
        )
        ctx.n = m.n
        if watch or seat.strip().lower() in ("none", "watch", "-"):
            human: int | None = None
        else:
            try:
                human = int(seat)
            except ValueError:
                raise torampu.RulesError(
                    f"--seat must be 0..{m.n - 1} or none, not {seat!r}"
                ) from None
            if not 0 <= human < m.n:
                raise torampu.RulesError(f"--seat must be 0..{m.n - 1} or none, not {human}")
        ctx.human = human
        r = renderer_for(game, ctx)
        kind = bots or "heuristic"
        try:
            bot_of = _make_bots(kind, seed, game, m.n, human)
        except BotError:
            if bots is not None:
                raise
            notice = ctx.tx("bots_fallback", kind=ctx.bot_kind(kind), game=ctx.game_name(game))
            kind = "random"
            bot_of = _make_bots(kind, seed, game, m.n, human)
    except BotError as e:
        kinds = ", ".join(bot_kinds())
        error(f"{escape(str(e))} (--bots: {kinds})")
        raise typer.Exit(1) from None
    except (TorampuError, ValueError) as e:
        error(escape(str(e)))
        raise typer.Exit(1) from None
    console.print(f"[dim]{ctx.tx('seed', seed=seed)}[/]")
    if notice:
        console.print(f"[dim]{escape(notice)}[/]")
    if human is None:
        console.print(ctx.tx("watching", n=m.n, kind=ctx.bot_kind(kind)))
    else:
        console.print(ctx.tx("playing", seat=human, kind=ctx.bot_kind(kind)))
    if not save_record(m, record, ctx, quiet=True):
        raise typer.Exit(1)
    try:
        run_match(m, bot_of, r, record)
    except _Leave as leave:
        console.print(f"\n{ctx.tx(leave.key)}")
        save_record(m, record, ctx)
        raise typer.Exit(leave.code) from None
    except KeyboardInterrupt:
        console.print(f"\n{ctx.tx('bye_interrupt')}")
        save_record(m, record, ctx)
        raise typer.Exit(130) from None
    except BotError as e:
        error(escape(str(e)))
        save_record(m, record, ctx)
        raise typer.Exit(1) from None


def _make_bots(kind: str, seed: int, game: str, n: int, human: int | None) -> dict[int, Bot]:
    """A bot of ``kind`` at every seat but the human's (:class:`BotError` if it cannot play);
    ``kind`` may carry options, as everywhere else: ``ismcts:iterations=300``."""
    name, options = parse_bot_spec(kind)
    return {
        s: make_bot(name, seed=_bot_seed(seed, s), game=game, **options)
        for s in range(n)
        if s != human
    }


# --------------------------------------------------------------------------------------- replay
def load_record(file: Path) -> dict[str, Any]:
    """Read a record file; :class:`RecordError` if it is not a JSON object."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"cannot read it: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    return data


def verify(data: Mapping[str, Any]) -> tuple[list[dict[str, Any]], torampu.Match | None]:
    """Replay a game or match record; return its game records (checked) and the match.

    Raises a :class:`TorampuError` (or ``KeyError``/``TypeError`` for a mangled record) at the
    first problem: a bad header, an illegal step, or a stored result that the replay contradicts.
    """
    check_record_header(data)
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"record seed must be an int, not {seed!r}")
    if data.get("match"):
        stored = data.get("records") or []
        if not isinstance(stored, list):
            raise RecordError("match 'records' must be a list")
        for i, game in enumerate(stored):
            if not isinstance(game, Mapping):
                raise RecordError(f"game {i} of the match is not a JSON object")
        m = torampu.replay_match(data)
        games = [*m.records]
        if not m.is_over and len(stored) > len(m.records):
            games.append(m.game.to_record())
        for i, (mine, theirs) in enumerate(zip(games, stored, strict=False)):
            for key in ("deal", "actions", "result"):
                if key in theirs and theirs[key] != mine.get(key):
                    raise RecordError(f"game {i}: its {key!r} differs from the match's replay")
        if "standings" in data and data["standings"] != m.standings():
            raise RecordError("the stored standings differ from the replay")
        return games, m
    g = torampu.replay(data)
    if "result" in data and data["result"] != g.result():
        raise RecordError("the stored result differs from the replay")
    return [g.to_record()], None


def _rules_summary(rec: Mapping[str, Any], ctx: Ctx) -> str:
    """The rules of a record: the preset they equal, or the options that differ from defaults."""
    rules: dict[str, Any] = dict(rec.get("rules", {}))
    game = rec.get("game", "")
    for name in torampu.presets(game):
        try:
            same = torampu.new_game(game, rules=name, players=rules.get("players"), seed=0).rules
        except TorampuError:
            continue
        if dict(same) == rules:
            return name
    defaults = {o["name"]: o["default"] for o in torampu.rules(game)}
    diff = [f"{k}={json.dumps(v)}" for k, v in rules.items() if defaults.get(k) != v]
    return ", ".join(diff) or ctx.tx("rules_defaults")


def tell_story(
    rec: Mapping[str, Any], no: int, total: int, totals: Sequence[int] | None, r: Renderer
) -> None:
    """The story of one game record: deal, auction, contract, exchange, every trick, result."""
    ctx = r.ctx
    g = torampu.replay({**rec, "actions": []})
    ctx.n = g.n
    console.print()
    console.rule(f"[bold]{r.header(g, no, total)}[/]")
    console.print(ctx.tx("story_rules", rules=escape(_rules_summary(rec, ctx))))
    console.print(f"[bold]{ctx.tx('story_deal')}[/]")
    print_all(r.deal_lines(g, rec.get("deal", {}).get("widow")))
    print_all(r.intro_lines(g.view(None)))
    console.print(f"[bold]{ctx.tx('story_auction')}[/]")
    for step in rec.get("actions", []):
        seat, action = step["seat"], step["action"]
        before = g.view(None)
        widow = g.view(seat).get("widow") if before.get("phase") == "exchange" else None
        g.play(action)
        after = g.view(None)
        print_all(r.describe(before, after, seat, action, widow=widow, omniscient=True))
        if after.get("redeals", 0) > before.get("redeals", 0):
            console.print(f"[bold]{ctx.tx('story_new_deal')}[/]")
            print_all(r.deal_lines(g))
        print_all(r.story_lines(g, before, after))
    if g.is_over:
        show_game_over(r, g, no, total, totals)
    else:
        console.print(f"[yellow]{ctx.tx('story_unfinished')}[/]")


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="a record written by torampu (a game or a match)")
    ],
    lang: Annotated[Lang, typer.Option(help="language of the story")] = Lang.en,
) -> None:
    """Check a record and tell the game's story (exit code 1 if the record is bad)."""
    ctx = Ctx(lang=lang.value, n=0)
    try:
        data = load_record(file)
        games, m = verify(data)
    except (TorampuError, KeyError, TypeError, AttributeError) as e:
        why = str(e) if not isinstance(e, KeyError) else f"missing {e}"
        error(ctx.tx("replay_failed", file=escape(str(file)), why=escape(why)))
        raise typer.Exit(1) from None
    r = renderer_for(str(data["game"]), ctx)
    if m is not None:
        console.print(
            ctx.tx(
                "story_match",
                total=m.games_total,
                played=len(games),
                game=ctx.game_name(m.name),
                players=m.n,
            )
        )
        if isinstance(m, DaifugoMatch) and m.duplicate > 1:
            console.print(ctx.tx("story_duplicate", k=m.duplicate))
    running = [0] * (m.n if m is not None else 0)
    for i, rec in enumerate(games):
        totals: list[int] | None = None
        if m is not None and "result" in rec:
            running = [a + b for a, b in zip(running, rec["result"]["scores"], strict=True)]
            totals = running
        tell_story(rec, i + 1, m.games_total if m is not None else 1, totals, r)
    if m is not None and m.games_played:
        print_all(r.final(m.standings()))
        if isinstance(m, DaifugoMatch) and m.duplicate > 1:
            _duplicate_points(ctx, games, m.duplicate)
    console.print(f"[green]{ctx.tx('story_verified')}[/]")


def _duplicate_points(ctx: Ctx, games: list[dict[str, Any]], duplicate: int) -> None:
    """Each seat's points per game with a 95% interval over the record's whole duplicate deals
    (nothing with fewer than two)."""
    scores = [rec["result"]["scores"] for rec in games if "result" in rec]
    figures = deal_intervals(scores, duplicate)
    if any(f is None for f in figures):
        return
    shown = ", ".join(
        f"{ctx.tx('seat_name', seat=q)} {f[0]:.2f} [{f[1]:.2f}, {f[2]:.2f}]"
        for q, f in enumerate(figures)
        if f is not None
    )
    console.print(ctx.tx("story_duplicate_points", deals=len(scores) // duplicate, figures=shown))


# --------------------------------------------------------------------------------------- rules
def _fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, list):
        return json.dumps(value) if value else "[]"
    return str(value)


def _fmt_values(option: Mapping[str, Any]) -> str:
    """The allowed values of an option; a long run of whole numbers as a range (``-100…100``)."""
    values = list(option.get("values") or [])
    if not values:
        return "list of cards" if option.get("type") == "cards" else "-"
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(values) > 6 and len(ints) == len(values) and max(ints) - min(ints) == len(ints) - 1:
        return f"{min(ints)}…{max(ints)}"
    return ", ".join(_fmt(v) for v in values)


def options_table(game: str, options: Sequence[Mapping[str, Any]], width: int) -> Table:
    """Every option: name, type, allowed values, default, description, source.

    From 120 columns on, one column each; narrower, two columns: the name with its type and
    source, then the values, the default and the description one under the other.
    """
    wide = width >= 120
    table = Table(
        title=f"{game}: options", title_justify="left", title_style="bold", show_lines=not wide
    )
    name_width = max((len(o["name"]) for o in options), default=8)
    if wide:
        table.add_column("option", no_wrap=True, min_width=name_width)
        table.add_column("type", no_wrap=True)
        table.add_column("values", max_width=24)
        table.add_column("default", max_width=16)
        table.add_column("description", ratio=1)
        table.add_column("source", no_wrap=True)
    else:
        table.add_column("option · type · source", no_wrap=True, min_width=name_width)
        table.add_column("values · default · description", ratio=1)
    for o in options:
        name = f"[bold]{escape(o['name'])}[/]"
        kind = escape(str(o["type"]))
        desc = escape(str(o.get("description", "")))
        source = escape(str(o.get("source", "")))
        values = escape(_fmt_values(o))
        default = escape(_fmt(o["default"]))
        if wide:
            table.add_row(name, kind, values, default, desc, source)
        else:
            table.add_row(
                f"{name}\n[dim]{kind} · {source}[/]",
                f"{values}\n[dim]default[/] [bold]{default}[/]\n[italic]{desc}[/]",
            )
    return table


def presets_table(game: str, presets: Mapping[str, Mapping[str, Any]]) -> Table:
    """Every preset with the options it changes from the defaults."""
    table = Table(title=f"{game}: presets", title_justify="left", title_style="bold")
    width = max((len(p) for p in presets), default=8)
    table.add_column("preset", no_wrap=True, min_width=width, style="bold")
    table.add_column("overrides", overflow="fold")
    table.add_column("note", overflow="fold")
    for name, p in presets.items():
        overrides = ", ".join(f"{k}={_fmt(v)}" for k, v in p["options"].items()) or "-"
        table.add_row(name, escape(overrides), escape(str(p.get("note", ""))))
    return table


@app.command()
def rules(
    game: Annotated[str, typer.Argument(metavar="GAME", help="napoleon, nap or hell")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of tables")] = False,
) -> None:
    """Print every option of GAME (type, values, default, description, source) and its presets."""
    try:
        opts = torampu.rules(game)
        presets = torampu.presets(game)
    except TorampuError as e:
        error(escape(str(e)))
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(
            json.dumps(
                {"game": game, "options": opts, "presets": presets}, ensure_ascii=False, indent=1
            )
        )
        return
    console.print(options_table(game, opts, console.width))
    console.print(presets_table(game, presets))
    example = next(iter(presets), "")
    console.print(
        f"[dim]torampu play {escape(game)} --rules {escape(example)}   or   "
        f'--rules \'{{"preset": "{escape(example)}", "players": 4}}\'[/]'
    )


app.add_typer(uecda_app, name="uecda")  # torampu uecda client / server
app.add_typer(train_app, name="train")  # torampu train daifugo


app.command()(tournament)
app.command()(serve)
app.command()(worker)


def main() -> None:
    """Entry point of the ``torampu`` command."""
    app(prog_name="torampu")
