"""Daifugo (大富豪) in the terminal: titles, the exchange, the table, every ruling told.

:class:`DaifugoRenderer` reads only views (``view(seat)``) and the standings, like every
renderer. It shows, before a decision: the titles of the last game, the cards each seat holds,
who has passed or gone out, the state of the order (革命, 11バック, Qリバース), a lock, the
table (with what each joker stands for); then the hand in playing order (3 … 2, jokers). After
each action it tells what happened and *why*, from the rulings the engine logs (``8切り``,
``縛り``, ``反則上がり`` …) in the chosen language.

What a person may type (see :meth:`DaifugoRenderer.read`): a menu number, ``p`` or ``pass``, the
cards of a play in any order and spelling (``3h 3d``, ``♥3 ♦3``, ``jk``), with the joker's place
when it matters (``5h jk 7h`` or ``5h 7h jk=6h``), and the same bare cards for the exchange, a
7渡し give or a 10捨て discard (``give 3h``; ``none`` gives or discards nothing).

>>> from torampu.cli.show import Ctx
>>> r = DaifugoRenderer(Ctx(lang="en", n=4, game="daifugo"))
>>> legal = ["pass", "play 5H", "play 5H 6H JK", "play JK 5H 6H"]
>>> view = {"phase": "play"}
>>> r.read("6h 5H jk=7h", legal, view), r.read("p", legal, view)
('play 5H 6H JK', 'pass')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

import torampu
from torampu.cards import card_str, parse_card
from torampu.cli.games import Renderer
from torampu.cli.show import FULL_WIDTH, MENU_MAX, prettify, score, show_card, show_suit
from torampu.daifugo import TITLES_JA, title_names
from torampu.daifugo_plays import (
    cards_words,
    parse_cards_jokers,
    parse_play,
    play_words,
    stands_for,
)
from torampu.errors import CardError, IllegalAction

GAME_COLUMNS = 12
"""A match of more games than this gets its standings summarised (places per seat), not one
column per game (a UECda run of 1,000 games)."""

View = Mapping[str, Any]

_JOKER_WORDS = {"jk", "joker", "jo", "j0", "ジョーカー", "🃏"}
_NOTHING_WORDS = {"none", "nothing", "0", "-", "なし"}
_PASS_WORDS = {"p", "pass", "パス"}
_VERBS = {
    "play": "play",
    "出す": "play",
    "give": "give",
    "渡す": "give",
    "discard": "discard",
    "捨てる": "discard",
    "exchange": "exchange",
    "交換": "exchange",
    "return": "exchange",
}
_PHASE_VERB = {"play": "play", "give": "give", "discard": "discard", "exchange": "exchange"}


def _rank_of(card: str) -> str:
    return "JK" if card.startswith("JK") else card[0]


def show_dhand(cards: Sequence[str]) -> str:
    """A Daifugo hand in playing order (as the engine sorts it: 3 … A 2, jokers), cards of one
    rank together, ranks separated by wider gaps.

    >>> show_dhand(["3C", "3H", "5S", "JK"])
    '[bold]♣3[/] [bold red]♥3[/]   [bold]♠5[/]   [bold magenta]JK[/]'
    """
    groups: list[list[str]] = []
    last = ""
    for c in cards:
        rank = _rank_of(c)
        if rank != last:
            groups.append([])
            last = rank
        groups[-1].append(show_card(c))
    return "   ".join(" ".join(g) for g in groups) or "-"


def show_play(words: Sequence[str], stands: Sequence[str] | None = None) -> str:
    """The cards of a play; a joker in a run shows the card it stands for: ``JK(♥6)``."""
    out = []
    for i, w in enumerate(words):
        if w.startswith("JK="):
            out.append(f"{show_card('JK')}({show_card(w[3:])})")
        elif w == "JK" and stands and i < len(stands) and len(stands[i]) == 2 and stands[i] != "JK":
            # (a joker standing for nothing but itself read "JK(JK)": a fourth review)
            if stands[i][1] != "*":
                out.append(f"{show_card('JK')}({show_card(stands[i])})")
            else:
                out.append(show_card("JK"))
        else:
            out.append(show_card(w))
    return " ".join(out) or "-"


def _play_label(action: str) -> str:
    """A legal ``play …`` as a menu label, jokers of a run with their places."""
    cards = action.split()[1:]
    try:
        move = parse_play(" ".join(cards))
    except IllegalAction:
        return escape(action)
    return show_play(play_words(move), stands_for(move))


class DaifugoRenderer(Renderer):
    """大富豪: each play told as it is made, with the rulings it brought."""

    trick_game = False

    # ----------------------------------------------------------------------- words
    def title(self, title: str | None) -> str:
        """A title (``daifugo`` …) in the viewer's language; ``-`` for none."""
        if not title:
            return "-"
        return TITLES_JA.get(title, title) if self.ctx.lang == "ja" else title

    def why(self, entry: View) -> str:
        return str(entry.get(self.ctx.lang) or entry.get("en") or entry.get("code", ""))

    def header(self, g: torampu.Game, no: int, total: int) -> str:
        return self.ctx.tx("header", no=no, total=total, players=g.n)

    def intro_lines(self, view: View) -> list[str]:
        """Titles carried from the last game, 天変地異 and the exchange, or the first lead."""
        ctx = self.ctx
        lines: list[str] = []
        titles = view.get("titles")
        if titles:
            parts = [f"{ctx.name(s)} {self.title(t)}" for s, t in enumerate(titles)]
            lines.append(f"{ctx.tx('titles')}: {' · '.join(parts)}")
            if view.get("defense"):
                lines.append(ctx.tx("defense", n=view["defense"]))
        else:
            lead = (view.get("rules") or {}).get("first_lead")
            if lead:
                lines.append(ctx.tx("first_game", card=show_card(str(lead))))
        tenpen = view.get("tenpen")
        if tenpen:
            lines.append(f"[yellow]{self._tenpen(tenpen)}[/]")
        for ex in view.get("exchange") or []:
            lines.append(self._gift_line(ex))
        return lines

    def _tenpen(self, tenpen: Any) -> str:
        ctx = self.ctx
        if isinstance(tenpen, Mapping):
            poor, rich = ctx.name(tenpen.get("poor")), ctx.name(tenpen.get("rich"))
            hand = show_play(tenpen.get("hand") or [])
            return ctx.tx("tenpen", poor=poor, rich=rich, hand=hand)
        return ctx.tx("tenpen_plain")

    def _gift_line(self, ex: View) -> str:
        ctx = self.ctx
        given = ex.get("given")
        cards = f": {show_play(given)}" if given else ""
        return ctx.tx(
            "gift", poor=ctx.name(ex["poor"]), rich=ctx.name(ex["rich"]), k=ex["count"], cards=cards
        )

    # ----------------------------------------------------------------------- a decision
    def status_lines(self, view: View, secret: bool = False) -> list[str]:
        ctx = self.ctx
        lines = [self._seats_line(view)]
        flags = self._flags(view)
        if flags:
            lines.append(" · ".join(flags))
        phase = view.get("phase")
        seat = view.get("seat")
        if phase == "exchange":
            lines += self._exchange_lines(view, seat)
        elif phase == "give":
            k = int(view.get("pending") or 0)
            n = int(view.get("players") or ctx.n or 1)
            nxt = (seat + int(view.get("direction") or 1)) % n if isinstance(seat, int) else None
            lines.append(f"[yellow]{ctx.tx('give_now', k=k, who=ctx.name(nxt))}[/]")
        elif phase == "discard":
            k = int(view.get("pending") or 0)
            lines.append(f"[yellow]{ctx.tx('discard_now', k=k)}[/]")
        else:
            lines.append(self._table_line(view))
        return [*lines, f"{ctx.tx('hand')}: {show_dhand(view.get('hand') or [])}"]

    def _seats_line(self, view: View) -> str:
        """Every seat: its title, how many cards it holds, passed or out (with its place)."""
        ctx = self.ctx
        sizes: list[int] = list(view.get("hand_sizes") or [])
        titles = view.get("titles") or [None] * len(sizes)
        finished: list[int] = list(view.get("finished") or [])
        passed = set(view.get("passed") or [])
        fouls = set(view.get("fouls") or [])
        fallen = view.get("fallen")
        parts = []
        for s, k in enumerate(sizes):
            name = ctx.name(s)
            if titles[s]:
                name += f" ({self.title(titles[s])})"
            if s in finished:
                state = ctx.tx("place", k=finished.index(s) + 1)
            elif s == fallen:
                state = ctx.tx("fallen_short")
            elif s in fouls:
                state = ctx.tx("foul_short")
            else:
                state = ctx.tx("cards_left", k=k)
                if s in passed:
                    state += " " + ctx.tx("passed_short")
            if s == view.get("to_play"):
                name = f"[bold]▶ {name}[/]"
            parts.append(f"{name} {state}")
        return " · ".join(parts)

    def _flags(self, view: View) -> list[str]:
        """The state of the order and the locks, when not the usual."""
        ctx = self.ctx
        flags = []
        if view.get("revolution"):
            flags.append(f"[bold red]{ctx.tx('flag_revolution')}[/]")
        if view.get("coup"):
            flags.append(f"[bold red]{ctx.tx('flag_coup')}[/]")
        if view.get("eleven_back"):
            flags.append(f"[bold yellow]{ctx.tx('flag_eleven')}[/]")
        if view.get("direction", 1) == -1:
            flags.append(ctx.tx("flag_reversed_order"))
        lock = view.get("lock")
        if lock:
            key = "flag_strict" if lock.get("strict") else "flag_lock"
            flags.append(f"[bold cyan]{ctx.tx(key, suits=_suit_symbols(lock['suits']))}[/]")
        if flags:
            low = ctx.tx("lower_wins") if view.get("reversed") else ctx.tx("higher_wins")
            flags.append(f"[dim]{low}[/]")
        return flags

    def _table_line(self, view: View) -> str:
        ctx = self.ctx
        table = view.get("table")
        if not table:
            lead = (view.get("rules") or {}).get("first_lead")
            if lead and not view.get("titles") and not view.get("log"):
                return ctx.tx("must_include", card=show_card(str(lead)))
            if view.get("to_play") == ctx.human and ctx.human is not None:
                return ctx.tx("you_lead")
            return ctx.tx("table_empty")
        cards = show_play(table["cards"], table.get("stands_for"))
        return ctx.tx("table_line", cards=cards, who=ctx.name(table.get("by")))

    def _exchange_lines(self, view: View, seat: Any) -> list[str]:
        ctx = self.ctx
        lines = []
        for ex in view.get("exchange") or []:
            if ex.get("rich") == seat and ex.get("returned") is None:
                got = show_play(ex.get("given") or [])
                who = ctx.name(ex["poor"])
                text = ctx.tx("exchange_now", k=ex["count"], cards=got, who=who)
                lines.append(f"[yellow]{text}[/]")
        return lines

    def hand_lines(self, view: View) -> list[str]:
        return [f"{self.ctx.tx('hand')}: {show_dhand(view.get('hand') or [])}"]

    def label(self, action: str) -> str:
        words = action.split()
        if not words:
            return ""
        verb = words[0]
        if verb == "pass":
            return self.ctx.tx("menu_pass")
        if verb == "play":
            return _play_label(action)
        if verb in ("give", "discard", "exchange"):
            if len(words) == 1:
                return self.ctx.tx("menu_nothing")
            return show_play(words[1:])
        return escape(action)

    def order(self, legal: Sequence[str]) -> list[str]:
        """The engine's order: plays by strength, weakest first."""
        return list(legal)

    def menu_actions(self, legal: Sequence[str], view: View) -> list[str]:
        """Up to :data:`MENU_MAX` entries: passing first, then plays with the fewest jokers
        (a hand with jokers can make hundreds of plays: the rest are typed)."""
        if len(legal) <= MENU_MAX:
            return list(legal)
        if view.get("phase") != "play":
            return []

        def jokers(action: str) -> int:
            return sum(w.startswith("JK") for w in action.split()[1:])

        order = sorted(range(len(legal)), key=lambda i: (legal[i] != "pass", jokers(legal[i]), i))
        return [legal[i] for i in order[:MENU_MAX]]

    def menu_hint(self, view: View, legal: Sequence[str], numbered: bool) -> str | None:
        ctx = self.ctx
        phase = view.get("phase")
        shown = len(self.menu_actions(legal, view))
        if phase == "play":
            if shown < len(legal):
                return ctx.tx("hint_more", k=len(legal) - shown)
            return ctx.tx("hint_play")
        if phase == "exchange":
            k = next(
                (
                    ex["count"]
                    for ex in view.get("exchange") or []
                    if ex.get("rich") == view.get("seat") and ex.get("returned") is None
                ),
                1,
            )
            example = " ".join((view.get("hand") or [])[:k]).lower()
            return ctx.tx("hint_exchange", k=k, example=example)
        if phase in ("give", "discard"):
            example = ((view.get("hand") or ["3C"])[0]).lower()
            return ctx.tx(f"hint_{phase}", k=view.get("pending", 1), example=example)
        return super().menu_hint(view, legal, numbered)

    def read(self, text: str, legal: Sequence[str], view: View) -> str:
        """What a person typed, as one of ``legal`` (or :class:`IllegalAction` saying why not).

        Cards may come in any order and spelling; the verb may be left out (the phase says it).
        A joker standing for a card of a run may be written in its place (``5h jk 7h``) or as
        ``jk=6h``; when the cards fit several legal plays, the error lists them.
        """
        ctx = self.ctx
        # full-width letters and digits typed with a Japanese input method read as ASCII, as
        # the other games' reader does ("ｐａｓｓ" was "not a card"; "１" was read, "３Ｄ" not)
        t = text.translate(FULL_WIDTH).strip()
        if not t:
            raise IllegalAction(ctx.tx("empty"))
        if len(t) > 200:  # no move is this long: not echoed whole (a 1 MB line came back twice)
            raise IllegalAction(ctx.tx("unreadable", text=t[:40] + "…"))
        shown = self.menu_actions(legal, view)
        if t.isascii() and t.isdecimal():
            if len(t) > 6:  # (5,000 digits: int() refused them with a traceback)
                raise IllegalAction(ctx.tx("no_entry", k=t[:6] + "…", n=len(shown)))
            k = int(t)
            if shown and 1 <= k <= len(shown):
                return shown[k - 1]
            if k == 0 and view.get("phase") in ("give", "discard"):
                return self._nothing(legal, view)
            if not shown:
                raise IllegalAction(ctx.tx("no_menu"))
            raise IllegalAction(ctx.tx("no_entry", k=k, n=len(shown)))
        if t in legal:
            return t
        words = t.replace(",", " ").split()
        low = [w.lower() for w in words]
        if len(low) == 1 and low[0] in _PASS_WORDS:
            return "pass"
        phase = str(view.get("phase") or "play")
        verb = _PHASE_VERB.get(phase, "play")
        if low[0] in _VERBS:
            verb = _VERBS[low[0]]
            words, low = words[1:], low[1:]
        if verb in ("give", "discard") and (
            not words or (len(low) == 1 and low[0] in _NOTHING_WORDS)
        ):
            return self._nothing(legal, view, verb)
        if not words:
            raise IllegalAction(ctx.tx("unreadable", text=t))
        words = [("JK" if lw in _JOKER_WORDS else w) for w, lw in zip(words, low, strict=True)]
        if verb == "play":
            return self._read_play(words, legal, t)
        try:
            real, j = parse_cards_jokers(words)
        except IllegalAction as e:
            raise IllegalAction(ctx.tx("unreadable_why", text=t, why=str(e))) from None
        return " ".join([verb, *cards_words(real, j)])

    def _nothing(self, legal: Sequence[str], view: View, verb: str | None = None) -> str:
        verb = verb or _PHASE_VERB.get(str(view.get("phase")), "give")
        return verb

    def _read_play(self, words: list[str], legal: Sequence[str], text: str) -> str:
        ctx = self.ctx
        try:
            move = parse_play(" ".join(words))
        except IllegalAction:
            move = None
        if move is not None:
            exact = "play " + " ".join(play_words(move))
            if exact in legal:
                return exact
        try:
            real, j = parse_cards_jokers([w.split("=")[0] for w in words])
        except IllegalAction as e:
            raise IllegalAction(ctx.tx("unreadable_why", text=text, why=str(e))) from None
        fits = [a for a in legal if a.startswith("play ") and _cards_of_play(a) == (real, j)]
        wanted = set()
        for w in words:
            if w.upper().startswith("JK="):
                try:
                    wanted.add(card_str(parse_card(w[3:])))
                except CardError as e:
                    raise IllegalAction(ctx.tx("unreadable_why", text=text, why=str(e))) from None
        if wanted:
            fits = [a for a in fits if wanted <= set(_joker_cells(a))]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            options = ctx.tx("sep").join(
                f"{a[5:].lower()} (" + " ".join(f"JK={c}" for c in _joker_cells(a)) + ")"
                for a in fits
            )
            raise IllegalAction(ctx.tx("ambiguous", options=options))
        if move is not None:  # readable but not legal: the engine says why
            return "play " + " ".join(play_words(move))
        return "play " + " ".join(cards_words(real, j))

    # ----------------------------------------------------------------------- what happened
    def describe(
        self,
        before: View,
        after: View,
        seat: int,
        action: str,
        widow: Sequence[str] | None = None,
        omniscient: bool = False,
    ) -> list[str]:
        ctx = self.ctx
        lines: list[str] = []
        old = len(before.get("log") or [])
        entries = list(after.get("log") or [])[old:]
        if after.get("phase") == "exchange" or before.get("phase") == "exchange":
            lines += self._exchange_told(before, after, seat, action)
        for e in entries:
            lines.append(f"[dim]{ctx.name(e['seat'])}:[/] {self._entry_words(e)}")
            for w in e.get("why") or []:
                lines.append(f"    [italic cyan]{prettify(self.why(w))}[/]")
        if before.get("phase") == "exchange" and after.get("phase") == "play":
            lines.append(f"[bold]{ctx.tx('play_starts', who=ctx.name(after.get('to_play')))}[/]")
        return lines

    def _entry_words(self, e: View) -> str:
        ctx = self.ctx
        words = str(e.get("action", "")).split()
        verb = words[0] if words else ""
        if verb == "pass":
            return ctx.tx("ev_pass")
        if verb == "play":
            return ctx.tx("ev_played", cards=show_play(words[1:], e.get("stands_for")))
        if verb == "discard":
            if len(words) == 1:
                return ctx.tx("ev_discard_none")
            return ctx.tx("ev_discarded", cards=show_play(words[1:]))
        if verb == "give":
            to = ctx.name(e.get("to"))
            cards = e.get("cards")
            if cards:
                return ctx.tx("ev_gave", cards=show_play(cards), who=to)
            k = int(e.get("count") or 0)
            if k == 0:
                return ctx.tx("ev_gave_none", who=to)
            return ctx.tx("ev_gave_n", k=k, who=to)
        return escape(str(e.get("action", "")))

    def _exchange_told(self, before: View, after: View, seat: int, action: str) -> list[str]:
        """The rich seat's return: the cards when the viewer may see them."""
        if not action.startswith("exchange"):
            return []
        ctx = self.ctx
        for ex in after.get("exchange") or []:
            if ex.get("rich") != seat:
                continue
            ret = ex.get("returned")
            who = ctx.name(ex["poor"])
            if ret:
                text = ctx.tx("ev_returned", cards=show_play(ret), who=who)
            else:
                text = ctx.tx("ev_returned_n", k=ex["count"], who=who)
            return [f"[dim]{ctx.name(seat)}:[/] {text}"]
        return []

    # ----------------------------------------------------------------------- results
    def result_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        ranking: list[int] = list(res.get("ranking") or [])
        titles: list[str] = list(res.get("titles") or [])
        parts = [
            f"{i}. {ctx.name(s)} {self.title(titles[s] if s < len(titles) else None)}"
            for i, s in enumerate(ranking, 1)
        ]
        lines = [f"{ctx.tx('ranking')}: {' · '.join(parts)}"]
        for f in res.get("fouls") or []:
            lines.append(f"[red]{ctx.tx('res_foul', who=ctx.name(f))}[/]")
        if res.get("fallen") is not None:
            lines.append(f"[yellow]{ctx.tx('res_fallen', who=ctx.name(res['fallen']))}[/]")
        if res.get("great_revolution"):
            lines.append(f"[bold red]{ctx.tx('res_great')}[/]")
        return lines

    def score_columns(self, view: View) -> list[tuple[str, str]]:
        return [(self.ctx.tx("col_place"), "right"), (self.ctx.tx("col_title"), "left")]

    def score_cells(self, view: View, seat: int) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        ranking: list[int] = list(res.get("ranking") or [])
        place = str(ranking.index(seat) + 1) if seat in ranking else "-"
        titles = res.get("titles") or []
        title = self.title(titles[seat] if seat < len(titles) else None)
        if seat in (res.get("fouls") or []):
            title += f" [red]({ctx.tx('foul_short')})[/]"
        elif seat == res.get("fallen"):
            title += f" [yellow]({ctx.tx('fallen_short')})[/]"
        return [place, title]

    def after_game(self, st: View) -> list[RenderableType]:
        return self.final(st)[1:]

    def final(self, st: View) -> list[RenderableType]:
        ctx = self.ctx
        heading = f"[bold]{ctx.tx('standings', n=st['games_played'], total=st['games'])}[/]"
        if len(st["per_game"]) > GAME_COLUMNS:
            note = f"[dim]{ctx.tx('places_note', n=len(st['per_game']))}[/]"
            return ["", heading, note, self.places_table(st)]
        return ["", heading, self.standings_table(st)]

    def places_table(self, st: View) -> Table:
        """A long match summarised: per seat its title now, games, how often it finished in
        each place, points per game and the total; leaders starred."""
        ctx = self.ctx
        details: list[View] = st.get("games_detail") or []
        n = len(st["totals"])
        places = [[0] * n for _ in range(n)]
        for d in details:
            for pos, s in enumerate(d["ranking"]):
                places[s][pos] += 1
        table = Table()
        table.add_column(ctx.tx("col_seat"))
        table.add_column(ctx.tx("col_title"))
        table.add_column(ctx.tx("col_games"), justify="right")
        for name in title_names(n):
            table.add_column(self.title(name), justify="right")
        table.add_column(ctx.tx("col_mean"), justify="right")
        table.add_column(ctx.tx("col_total"), justify="right")
        leaders = set(st.get("leaders", []))
        titles = st.get("titles") or [None] * n
        played = len(st["per_game"])
        for s, total in enumerate(st["totals"]):
            name = ctx.name(s) if s == ctx.human else str(s)
            star = " ★" if s in leaders and st["games_played"] else ""
            table.add_row(
                name + star,
                self.title(titles[s]),
                str(played),
                *[str(k) for k in places[s]],
                f"{total / played:.2f}" if played else "-",
                f"[bold]{score(total)}[/]",
            )
        return table

    def standings_table(self, st: View) -> Table:
        """Per seat: its title now, its points in every game, the total; leaders starred."""
        ctx = self.ctx
        per_game: list[list[int]] = st["per_game"]
        table = Table()
        table.add_column(ctx.tx("col_seat"))
        table.add_column(ctx.tx("col_title"))
        for i in range(len(per_game)):
            table.add_column(str(i + 1), justify="right")
        table.add_column(ctx.tx("col_total"), justify="right")
        leaders = set(st.get("leaders", []))
        titles = st.get("titles") or [None] * len(st["totals"])
        for s, total in enumerate(st["totals"]):
            name = ctx.name(s) if s == ctx.human else str(s)
            star = " ★" if s in leaders and st["games_played"] else ""
            table.add_row(
                name + star,
                self.title(titles[s]),
                *[score(g[s]) for g in per_game],
                f"[bold]{score(total)}[/]",
            )
        return table


def _suit_symbols(suits: Sequence[str]) -> str:
    return "".join(show_suit(s) for s in suits)


def _joker_cells(action: str) -> list[str]:
    """The cards the jokers of a ``play …`` stand for (a group's: its rank, as ``5*``)."""
    try:
        move = parse_play(action[5:])
    except IllegalAction:
        return []
    words = play_words(move)
    return [c for w, c in zip(words, stands_for(move), strict=True) if w.startswith("JK")]


def _cards_of_play(action: str) -> tuple[int, int]:
    """(real cards as a set, joker count) of a ``play …`` string."""
    real = 0
    j = 0
    for w in action.split()[1:]:
        if w.startswith("JK"):
            j += 1
            continue
        try:
            real |= 1 << parse_card(w)
        except CardError:
            return (-1, -1)
    return real, j


__all__ = ["DaifugoRenderer", "show_dhand", "show_play"]
