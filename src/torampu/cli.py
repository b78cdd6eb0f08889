"""The terminal front end: ``torampu play``, ``torampu replay``, ``torampu rules``.

Built on the public contract only: the human sees ``view(seat)``, bots see their own views.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import torampu
from torampu.bots import BotError, make_bot
from torampu.cards import SUIT_SYMBOLS, parse_card
from torampu.errors import CardError, IllegalAction, TorampuError

app = typer.Typer(
    help="torampu: Japanese house-rule card games in the terminal.", no_args_is_help=True
)
console = Console(highlight=False)

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "your_turn": "Your turn (seat {seat}), phase {phase}",
        "hand": "Your hand",
        "prompt": "action, card or number",
        "illegal": "Not accepted: {why}",
        "bye": "Input closed: the match is saved where you asked; goodbye.",
        "trick": "Trick {no}",
        "game_over": "Game {no} over",
        "standings": "Match standings",
        "seat": "seat",
        "role": "role",
        "honors": "honors",
        "score": "game",
        "total": "total",
        "napoleon": "Napoleon",
        "adjutant": "adjutant",
        "ally": "ally",
        "contract": "Contract {contract} by seat {nap}; adjutant card {card}",
        "acts": "seat {seat}: {action}",
    },
    "ja": {
        "your_turn": "あなたの番です (席 {seat}, {phase})",
        "hand": "手札",
        "prompt": "アクション・カード・番号",
        "illegal": "受け付けられません: {why}",
        "bye": "入力が終わりました。さようなら。",
        "trick": "第{no}トリック",
        "game_over": "第{no}ゲーム終了",
        "standings": "通算成績",
        "seat": "席",
        "role": "役",
        "honors": "絵札",
        "score": "得点",
        "total": "累計",
        "napoleon": "ナポレオン",
        "adjutant": "副官",
        "ally": "連合軍",
        "contract": "宣言 {contract} (席 {nap}); 副官指定カード {card}",
        "acts": "席 {seat}: {action}",
    },
}

_RED = {"H", "D"}


def show_card(card: str) -> str:
    """A card with its suit symbol, hearts and diamonds in red (Rich markup)."""
    if card == "JK":
        return "[bold magenta]JK[/]"
    rank, suit = card[0], card[1]
    sym = SUIT_SYMBOLS["SHDC".index(suit)]
    text = sym + ("10" if rank == "T" else rank)
    return f"[red]{text}[/]" if suit in _RED else f"[bold]{text}[/]"


def show_action(action: str) -> str:
    return " ".join(
        show_card(w) if (len(w) == 2 and w[1] in "SHDC") or w == "JK" else w for w in action.split()
    )


def resolve_input(text: str, legal: list[str]) -> str:
    """Turn what a person typed into a legal action string, or raise IllegalAction.

    Accepts the action itself, a menu number (1-based), a bare card (``AS``, ``♠A``, ``10h``)
    for ``play``, a bid (``13S``), or cards to discard.
    """
    t = text.strip()
    if not t:
        raise IllegalAction("type an action, a card or a menu number")
    if t.isdigit() and 1 <= int(t) <= len(legal) and len(legal) <= 60:
        return legal[int(t) - 1]
    if t in legal:
        return t
    words = t.split()
    verb = words[0].lower()
    if verb in ("play", "bid", "pass", "adjutant", "alone", "discard"):
        candidate = t
    else:
        candidate = ""
        try:
            cards = [torampu.cards.card_str(parse_card(w)) for w in words]
        except CardError:
            cards = []
        if cards and any(a.startswith("discard ") for a in legal):
            candidate = "discard " + " ".join(cards)
        elif len(cards) == 1 and any(a.startswith("adjutant ") for a in legal):
            candidate = "adjutant " + cards[0]
        elif len(cards) == 1:
            candidate = "play " + cards[0]
        elif len(words) == 1:
            candidate = "bid " + t.upper()
    if candidate:
        # canonicalise through the legal list: same words, any card order / spelling
        norm = _normal(candidate)
        for a in legal:
            if _normal(a) == norm:
                return a
        raise IllegalAction(f"{candidate!r} is not legal now")
    raise IllegalAction(f"cannot read {t!r}")


def _normal(action: str) -> tuple[str, frozenset[str]]:
    words = action.split()
    if not words:
        return ("", frozenset())
    rest = []
    for w in words[1:]:
        try:
            rest.append(torampu.cards.card_str(parse_card(w)))
        except CardError:
            rest.append(w.upper())
    return (words[0].lower(), frozenset(rest))


def _roles(view: dict[str, Any], res: dict[str, Any], seat: int, lang: str) -> str:
    tx = TEXT[lang]
    if seat == res.get("napoleon"):
        return tx["napoleon"]
    if seat == res.get("adjutant"):
        return tx["adjutant"]
    return tx["ally"]


def print_game_result(m: torampu.Match, lang: str) -> None:
    tx = TEXT[lang]
    rec = m.records[-1]
    res = rec["result"]
    g = torampu.replay(rec)
    view = g.view(None)
    table = Table(title=tx["game_over"].format(no=len(m.records)))
    for col in ("seat", "role", "honors", "score", "total"):
        table.add_column(tx[col])
    for s in range(m.n):
        table.add_row(
            str(s),
            _roles(view, res, s, lang) if m.name == "napoleon" else "",
            str(view.get("honor_counts", [""] * m.n)[s]),
            str(res["scores"][s]),
            str(m.totals[s]),
        )
    console.print(table)
    console.print({k: v for k, v in res.items() if k not in ("scores", "winners")})


def print_standings(m: torampu.Match, lang: str) -> None:
    st = m.standings()
    table = Table(title=TEXT[lang]["standings"])
    table.add_column(TEXT[lang]["seat"])
    for i in range(len(st["per_game"])):
        table.add_column(str(i + 1))
    table.add_column(TEXT[lang]["total"])
    for s in range(m.n):
        table.add_row(str(s), *[str(g[s]) for g in st["per_game"]], str(st["totals"][s]))
    console.print(table)


def _narrate(view: dict[str, Any], seen_tricks: int, lang: str) -> int:
    tricks = view.get("tricks", [])
    for i in range(seen_tricks, len(tricks)):
        t = tricks[i]
        cards = "  ".join(f"{c['seat']}:{show_card(c['card'])}" for c in t["cards"])
        console.print(f"  {TEXT[lang]['trick'].format(no=i + 1)}: {cards}  → {t['why'][lang]}")
    return len(tricks)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="napoleon, nap or hell")] = "napoleon",
    rules: Annotated[str | None, typer.Option(help="a preset (see `torampu rules GAME`)")] = None,
    seat: Annotated[str, typer.Option(help="your seat, or 'none' to watch bots")] = "0",
    lang: Annotated[str, typer.Option(help="ja or en")] = "en",
    games: Annotated[int | None, typer.Option(help="games in the match")] = None,
    bots: Annotated[str, typer.Option(help="bot kind for the other seats")] = "heuristic",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible match")] = None,
    record: Annotated[Path | None, typer.Option(help="save the match record here")] = None,
) -> None:
    """Play a match in the terminal against bots."""
    if lang not in TEXT:
        raise typer.BadParameter("--lang is ja or en")
    tx = TEXT[lang]
    try:
        m = torampu.new_match(game, rules=rules, players=players, games=games, seed=seed)
        human = None if seat.lower() in ("none", "watch") else int(seat)
        if human is not None and not 0 <= human < m.n:
            raise typer.BadParameter(f"--seat must be 0..{m.n - 1} or none")
        kind = bots if game == "napoleon" or bots == "random" else "random"
        players_ = {s: make_bot(kind, seed=s, game=game) for s in range(m.n) if s != human}
    except (TorampuError, ValueError) as e:
        console.print(f"[red]{e}[/]")
        raise typer.Exit(1) from None
    seen = 0
    games_done = 0
    while not m.is_over:
        s = m.to_play
        assert s is not None
        view = m.game.view(human)
        seen = _narrate(view, seen, lang)
        legal = m.legal_actions()
        if s == human:
            me = m.game.view(human)
            console.print(f"\n[bold]{tx['your_turn'].format(seat=s, phase=me['phase'])}[/]")
            if me.get("contract"):
                console.print(
                    tx["contract"].format(
                        contract=me["contract"],
                        nap=me.get("napoleon"),
                        card=me.get("adjutant_card"),
                    )
                )
            if me.get("widow"):
                console.print("widow: " + " ".join(show_card(c) for c in me["widow"]))
            console.print(f"{tx['hand']}: " + " ".join(show_card(c) for c in me["hand"]))
            if me.get("trick"):
                console.print(
                    "  " + "  ".join(f"{c['seat']}:{show_card(c['card'])}" for c in me["trick"])
                )
            if len(legal) <= 60:
                for i, a in enumerate(legal, 1):
                    console.print(f"  {i:2d}. {show_action(a)}")
            else:
                console.print(f"  ({len(legal)} choices: type the cards, e.g. 'discard 2C 3D')")
            while True:
                try:
                    line = input(f"{tx['prompt']}> ")
                except EOFError:
                    console.print(f"\n{tx['bye']}")
                    raise typer.Exit(0) from None
                try:
                    action = resolve_input(line, legal)
                    m.play(action)
                    break
                except (IllegalAction, CardError) as e:
                    console.print(f"[red]{tx['illegal'].format(why=e)}[/]")
        else:
            bot = players_[s]
            try:
                action = bot.choose(m.game.view(s), legal)
                if action not in legal:
                    raise BotError(f"bot at seat {s} chose {action!r}")
            except BotError as e:
                console.print(f"[red]{e}[/]")
                raise typer.Exit(1) from None
            if not action.startswith("play") or human is None:
                console.print(tx["acts"].format(seat=s, action=show_action(action)))
            m.play(action)
        if len(m.records) > games_done:
            games_done = len(m.records)
            final_view = torampu.replay(m.records[-1]).view(human)
            _narrate(final_view, seen, lang)
            seen = 0
            print_game_result(m, lang)
            if record is not None:
                record.write_text(json.dumps(m.to_record(), ensure_ascii=False, indent=1))
    print_standings(m, lang)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record written by torampu (game or match)")],
    lang: Annotated[str, typer.Option(help="ja or en")] = "en",
) -> None:
    """Check a record and tell the game's story."""
    try:
        data = json.loads(file.read_text())
        recs = data.get("records", []) if data.get("match") else [data]
        if data.get("match"):
            torampu.replay_match(data)
        for i, rec in enumerate(recs):
            g = torampu.replay(rec)
            console.rule(f"game {i + 1}: {rec['game']}")
            _story(g, rec, lang)
    except (OSError, json.JSONDecodeError, TorampuError, AttributeError, KeyError) as e:
        console.print(f"[red]cannot replay {file}: {e}[/]")
        raise typer.Exit(1) from None


def _story(g: torampu.Game, rec: dict[str, Any], lang: str) -> None:
    deal = rec.get("deal", {})
    for s, hand in enumerate(deal.get("hands", [])):
        console.print(f"seat {s}: " + " ".join(show_card(c) for c in hand))
    if deal.get("widow"):
        console.print("widow: " + " ".join(show_card(c) for c in deal["widow"]))
    plays = 0
    for step in rec.get("actions", []):
        if step["action"].startswith("play"):
            plays += 1
            continue
        console.print(f"  seat {step['seat']}: {show_action(step['action'])}")
    view = g.view(None)
    _narrate(view, 0, lang)
    if g.is_over:
        console.print(g.result())


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="napoleon, nap or hell")] = "napoleon",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Print every option of GAME and its presets."""
    try:
        opts = torampu.rules(game)
        presets = torampu.presets(game)
    except TorampuError as e:
        console.print(f"[red]{e}[/]")
        raise typer.Exit(1) from None
    if as_json:
        print(json.dumps({"options": opts, "presets": presets}, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{game}: options")
    for col in ("option", "type", "values", "default", "description", "source"):
        table.add_column(col, overflow="fold")
    for o in opts:
        table.add_row(
            o["name"],
            o["type"],
            ", ".join(map(str, o["values"])),
            str(o["default"]),
            o["description"],
            o["source"],
        )
    console.print(table)
    pt = Table(title=f"{game}: presets")
    pt.add_column("preset")
    pt.add_column("overrides")
    pt.add_column("note")
    for name, p in presets.items():
        pt.add_row(name, json.dumps(p["options"], ensure_ascii=False), p["note"])
    console.print(pt)


def main() -> None:
    """Entry point of the ``torampu`` command."""
    app()


if __name__ == "__main__":
    main()
