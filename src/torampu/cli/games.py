"""How each game looks in the terminal: one renderer per game, chosen by the game's name.

:class:`Renderer` tells any game generically (the status before a decision, the menu, what an
action did, tricks, the result, standings); :class:`NapoleonRenderer`, :class:`NapRenderer` and
:class:`HellRenderer` add what their game has of its own (the adjutant and the widow; Nap's named
bids, payments and redeals; Hell's upcard, hook and score sheet). Renderers read only views
(``view(seat)``, JSON-safe) and the standings, never hidden state; they return Rich markup
(strings) and tables, and print nothing themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich import box
from rich.cells import cell_len
from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

import torampu
from torampu.cli.show import (
    MENU_MAX,
    Ctx,
    action_phase,
    console,
    interpret,
    menu_order,
    padded_score,
    score,
    show_action,
    show_bid,
    show_card,
    show_cards,
    show_hand,
    show_suit,
    standings_table,
    trick_lines,
)
from torampu.errors import IllegalAction
from torampu.nap import BID_TRICKS as NAP_BID_TRICKS
from torampu.nap import BIDS as NAP_BIDS

View = Mapping[str, Any]


class Renderer:
    """Any game, told generically; subclasses override the pieces their game has of its own."""

    count_honors: ClassVar[bool] = False
    """Trick lines count the honors taken (Napoleon)."""
    trick_game: ClassVar[bool] = True
    """Plays are told by the trick lines (else each play is told as it happens)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    # ----------------------------------------------------------------------- headings, the deal
    def header(self, g: torampu.Game, no: int, total: int) -> str:
        """The title of game ``no`` of ``total``."""
        ctx = self.ctx
        return ctx.tx(
            "game_header",
            no=no,
            total=total,
            game=ctx.game_name(g.name),
            players=g.n,
            dealer=ctx.name(g.dealer),
        )

    def intro_lines(self, view: View) -> list[str]:
        """Public facts of a new deal, shown to everyone under the header (Hell: the upcard)."""
        return []

    def deal_lines(self, g: torampu.Game, widow: Sequence[str] | None = None) -> list[str]:
        """Every hand (a spectator or a story sees them all)."""
        ctx = self.ctx
        return [f"  {ctx.name(s)}: {show_hand(g.view(s).get('hand') or [])}" for s in range(g.n)]

    # ----------------------------------------------------------------------- a decision
    def label(self, action: str) -> str:
        """A legal action as a short menu entry or auction entry."""
        return show_action(action, self.ctx.lang)

    def status_lines(self, view: View, secret: bool = False) -> list[str]:
        """What the human needs to decide, from their own view.

        ``secret``: the seat knows something the table does not yet (Napoleon's adjutant).
        """
        phase = view.get("phase")
        lines = self.head_lines(view, secret)
        if phase == "bid":
            lines += self.bid_lines(view)
        if phase == "play":
            lines += self.count_lines(view)
            lines += self.table_lines(view)
        return lines + self.hand_lines(view)

    def head_lines(self, view: View, secret: bool) -> list[str]:
        return []

    def bid_lines(self, view: View) -> list[str]:
        if "auction" not in view:
            return []
        return [f"{self.ctx.tx('auction')}: {self.auction_line(view['auction'])}"]

    def auction_line(self, auction: Sequence[View]) -> str:
        """The last round of the auction: ``… seat 1 11♦, seat 2 pass, …``."""
        ctx = self.ctx
        if not auction:
            return ctx.tx("no_bids")
        recent = auction[-ctx.n :] if ctx.n else auction
        entries = [f"{ctx.name(a['seat'])} {self.label(a['action'])}" for a in recent]
        return ("… " if len(recent) < len(auction) else "") + ctx.tx("sep").join(entries)

    def count_lines(self, view: View) -> list[str]:
        if "tricks_won" not in view:
            return []
        ctx = self.ctx
        counts = " · ".join(f"{ctx.name(s)} {c}" for s, c in enumerate(view["tricks_won"]))
        return [f"{ctx.tx('col_tricks')}: {counts}"]

    def table_lines(self, view: View) -> list[str]:
        if "trick" not in view:
            return []
        ctx = self.ctx
        trick = view.get("trick") or []
        if not trick:
            return [ctx.tx("you_lead")]
        cards = " · ".join(f"{ctx.name(c['seat'])} {show_card(c['card'])}" for c in trick)
        return [f"{ctx.tx('table_now')}: {cards}"]

    def hand_lines(self, view: View) -> list[str]:
        return [f"{self.ctx.tx('hand')}: {show_hand(view.get('hand') or [])}"]

    def order(self, legal: Sequence[str]) -> list[str]:
        """The legal actions in the order the human is shown them (cards as a hand is sorted)."""
        return menu_order(legal)

    def menu_actions(self, legal: Sequence[str], view: View) -> list[str]:
        """The actions the numbered menu lists (entry k is the k-th), or none when there are
        too many to number: then the human types the action."""
        return list(legal) if len(legal) <= MENU_MAX else []

    def menu_entries(self, legal: Sequence[str], view: View) -> list[tuple[str, str]]:
        """The menu: (what to type, what it does); by default numbered from 1."""
        return [(str(i), self.label(a)) for i, a in enumerate(legal, 1)]

    def menu_title(self, view: View) -> str | None:
        """A line over the menu saying what its entries are, where their keys are not menu
        numbers (none by default)."""
        return None

    def menu_hint(self, view: View, legal: Sequence[str], numbered: bool) -> str | None:
        """A line under the menu saying what to type, when the menu does not say it all."""
        return None if numbered else self.ctx.tx("help_long", n=len(legal))

    def read(self, text: str, legal: Sequence[str], view: View) -> str:
        """What the human typed as an action string (not yet checked for legality), or
        :class:`IllegalAction` when it cannot be read."""
        return interpret(text, legal, len(legal) <= MENU_MAX, self.ctx.lang)

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
        """The lines that tell what ``action`` by ``seat`` did, from two views around it.

        ``before``/``after`` are the viewer's views (the human's, or the spectator's);
        ``omniscient`` (a replay) also shows what only the actor saw (Napoleon's widow).
        """
        ctx = self.ctx
        lines: list[str] = []
        what = self.action_words(before, after, seat, action, widow, omniscient)
        if what:
            lines.append(f"[dim]{ctx.name(seat)}:[/] {what}")
        lines += self.redeal_lines(before, after)
        lines += self.contract_lines(before, after)
        lines += self.start_lines(before, after)
        lines += self.card_lines(before, after, seat, action)
        done_before = before.get("tricks") or []
        done = after.get("tricks") or []
        for i in range(len(done_before), len(done)):
            lines += trick_lines(i + 1, done[i], ctx, self.count_honors)
        return lines + self.reveal_lines(before, after)

    def action_words(
        self,
        before: View,
        after: View,
        seat: int,
        action: str,
        widow: Sequence[str] | None,
        omniscient: bool,
    ) -> str:
        verb, rest = action.split()[0], action.split()[1:]
        if verb == "bid" and len(rest) == 1:
            return self.bid_words(action)
        if verb == "pass":
            return self.ctx.tx("ev_pass")
        if verb == "play":
            return "" if self.trick_game else self.ctx.tx("ev_played", cards=show_cards(rest))
        return escape(action)

    def bid_words(self, action: str) -> str:
        """What a bid did, told after the bidder's name: ``bid 13♠``."""
        return self.ctx.tx("ev_bid", bid=self.label(action))

    def redeal_lines(self, before: View, after: View) -> list[str]:
        n = after.get("redeals", 0)
        if n <= before.get("redeals", 0):
            return []
        who = self.ctx.name(after.get("dealer"))
        return [f"[yellow]{self.ctx.tx('ev_redeal', n=n, who=who)}[/]"]

    def contract_lines(self, before: View, after: View) -> list[str]:
        return []

    def start_lines(self, before: View, after: View) -> list[str]:
        if after.get("phase") != "play" or before.get("phase") == "play":
            return []
        return [
            f"[bold]{self.ctx.tx('ev_play_starts', who=self.ctx.name(after.get('to_play')))}[/]"
        ]

    def card_lines(self, before: View, after: View, seat: int, action: str) -> list[str]:
        """News a played card brings, before its trick is told (Nap: the first lead sets trump)."""
        return []

    def reveal_lines(self, before: View, after: View) -> list[str]:
        """News told after the trick lines (Napoleon: the adjutant revealed by a card)."""
        return []

    def story_lines(self, g: torampu.Game, before: View, after: View) -> list[str]:
        """What only a replay (which sees every hand) adds after an action."""
        return []

    # ----------------------------------------------------------------------- results
    def result_lines(self, view: View) -> list[str]:
        """The outcome of a finished game in words."""
        res = view.get("result") or {}
        return [self.ctx.tx("res_generic", who=self.ctx.seats(res.get("winners", [])))]

    def game_over(
        self, view: View, no: int, total: int, totals: Sequence[int] | None, playing: bool
    ) -> list[RenderableType]:
        """A finished game: the result in words, then the score table."""
        ctx = self.ctx
        title = f"[bold]{ctx.tx('result_title', no=no, total=total)}[/]"
        return ["", *self.result_lines(view), title, self.score_table(view, totals)]

    def score_columns(self, view: View) -> list[tuple[str, str]]:
        """The score table's columns between the seat and the score: (header, justify)."""
        res = view.get("result") or {}
        cols: list[tuple[str, str]] = []
        if "declarer" in res:
            cols.append((self.ctx.tx("col_role"), "left"))
        if "bids" in res:
            cols.append((self.ctx.tx("col_bid"), "right"))
        if "tricks" in res or "tricks_won" in view:
            cols.append((self.ctx.tx("col_tricks"), "right"))
        return cols

    def score_cells(self, view: View, seat: int) -> list[str]:
        res = view.get("result") or {}
        cells = []
        if "declarer" in res:
            cells.append(self.ctx.tx("declarer") if seat == res["declarer"] else "")
        if "bids" in res:
            cells.append(str(res["bids"][seat]))
        if "tricks" in res:
            cells.append(str(res["tricks"][seat]))
        elif "tricks_won" in view:
            cells.append(str(view["tricks_won"][seat]))
        return cells

    def score_table(self, view: View, totals: Sequence[int] | None) -> Table:
        """Per seat: the game's own columns, this game's score and the running total."""
        ctx = self.ctx
        res = view.get("result") or {}
        table = Table()
        table.add_column(ctx.tx("col_seat"))
        for header, justify in self.score_columns(view):
            table.add_column(header, justify="right" if justify == "right" else "left")
        table.add_column(ctx.tx("col_game"), justify="right")
        if totals is not None:
            table.add_column(ctx.tx("col_total"), justify="right")
        for s, v in enumerate(res.get("scores", [])):
            row = [ctx.name(s) if s == ctx.human else str(s), *self.score_cells(view, s), score(v)]
            if totals is not None:
                row.append(score(totals[s]))
            table.add_row(*row)
        return table

    def after_game(self, st: View) -> list[RenderableType]:
        """While playing, after each game but the last: the standings so far (if the game
        shows them)."""
        return []

    def final(self, st: View) -> list[RenderableType]:
        """The standings at the end of a match (or of a replayed match record)."""
        ctx = self.ctx
        heading = f"[bold]{ctx.tx('standings', n=st['games_played'], total=st['games'])}[/]"
        return ["", heading, standings_table(st, ctx)]


# ------------------------------------------------------------------------------------ Napoleon
class NapoleonRenderer(Renderer):
    """Napoleon: the widow and the exchange, the secret adjutant, honors."""

    count_honors = True

    def deal_lines(self, g: torampu.Game, widow: Sequence[str] | None = None) -> list[str]:
        lines = super().deal_lines(g)
        if widow:
            lines.append(f"  {self.ctx.tx('widow')}: {show_cards(widow)}")
        return lines

    def head_lines(self, view: View, secret: bool) -> list[str]:
        ctx = self.ctx
        lines = []
        if view.get("contract") and view.get("napoleon") is not None:
            parts = [
                ctx.tx(
                    "contract_line",
                    who=ctx.name(view["napoleon"]),
                    bid=show_bid(view["contract"]),
                    trump=ctx.trump(view.get("trump")),
                )
            ]
            if view.get("adjutant_card"):
                parts.append(ctx.tx("adjutant_card_line", card=show_card(view["adjutant_card"])))
            if view.get("alone_declared"):
                parts.append(ctx.tx("declared_alone"))
            elif view.get("phase") == "play":
                parts.append(self._adjutant_status(view) + (ctx.tx("secret") if secret else ""))
            lines.append(" · ".join(parts))
        if view.get("discards") and ctx.human is not None and view.get("napoleon") == ctx.human:
            lines.append(f"{ctx.tx('discards_you')}: {show_cards(view['discards'])}")
        elif view.get("discards"):
            lines.append(f"{ctx.tx('discards_shown')}: {show_cards(view['discards'])}")
        return lines

    def _adjutant_status(self, view: View) -> str:
        ctx = self.ctx
        if not view.get("adjutant_known"):
            return ctx.tx("adjutant_unknown")
        if view.get("alone"):
            return ctx.tx("adjutant_alone")
        return ctx.tx("adjutant_is", who=ctx.name(view.get("adjutant")))

    def bid_lines(self, view: View) -> list[str]:
        lines = super().bid_lines(view)
        if view.get("high_bid") and view.get("high_bidder") is not None:
            ctx = self.ctx
            who = ctx.name(view["high_bidder"])
            lines.append(ctx.tx("high_bid", bid=show_bid(view["high_bid"]), who=who))
        return lines

    def count_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        counts = " · ".join(f"{ctx.name(s)} {c}" for s, c in enumerate(view["honor_counts"]))
        return [f"{ctx.tx('honors_line')}: {counts}"]

    def hand_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        if view.get("phase") == "exchange" and view.get("widow"):
            return [
                f"{ctx.tx('widow')}: {show_cards(view['widow'])}",
                f"{ctx.tx('hand_widow')}: {show_hand(view.get('hand') or [])}",
            ]
        return super().hand_lines(view)

    def menu_hint(self, view: View, legal: Sequence[str], numbered: bool) -> str | None:
        ctx = self.ctx
        phase = action_phase(legal)
        if phase == "discard":
            n = len(legal[0].split()) - 1
            hand = list(view.get("hand") or [])
            example = " ".join(hand[-n:]) if len(hand) >= n else "2C 3D"
            return ctx.tx("help_exchange", n=n, example=example)
        if phase == "adjutant":
            alone = ""
            if "alone" in legal:
                alone = " or 'alone'" if ctx.lang == "en" else "、または 'alone'"
            return ctx.tx("help_adjutant", alone=alone)
        return super().menu_hint(view, legal, numbered)

    def action_words(
        self,
        before: View,
        after: View,
        seat: int,
        action: str,
        widow: Sequence[str] | None,
        omniscient: bool,
    ) -> str:
        ctx = self.ctx
        verb, rest = action.split()[0], action.split()[1:]
        if verb == "adjutant" and rest:
            return ctx.tx("ev_adjutant", card=show_card(rest[0]))
        if verb == "alone":
            return ctx.tx("ev_alone")
        if verb == "discard":
            if omniscient:
                return ctx.tx(
                    "ev_discard_all", widow=show_cards(widow or []), cards=show_cards(rest)
                )
            if seat == ctx.human:
                return ctx.tx("ev_discard_you", cards=show_cards(rest))
            text = ctx.tx("ev_discard_n", n=len(rest))
            shown = after.get("discards") or []
            if shown:
                text += ctx.tx("ev_discard_shown", cards=show_cards(shown))
            return text
        if verb == "play" and len(rest) == 2 and rest[1] == "call":
            return ctx.tx("ev_call", card=show_card(rest[0]))
        return super().action_words(before, after, seat, action, widow, omniscient)

    def contract_lines(self, before: View, after: View) -> list[str]:
        if after.get("napoleon") is None or before.get("napoleon") is not None:
            return []
        ctx = self.ctx
        line = ctx.tx(
            "ev_napoleon",
            who=ctx.name(after["napoleon"]),
            bid=show_bid(after.get("contract")),
            trump=ctx.trump(after.get("trump")),
        )
        return [f"[bold]{line}[/]"]

    def start_lines(self, before: View, after: View) -> list[str]:
        lines = super().start_lines(before, after)
        if not lines:
            return lines
        ctx = self.ctx
        news = self._own_adjutant_news(after)
        if not news and after.get("adjutant_known") and after.get("adjutant_card"):
            card = show_card(after["adjutant_card"])  # e.g. shown among the discards
            if after.get("alone"):
                news = [f"[bold]{ctx.tx('ev_revealed_alone', card=card)}[/]"]
            else:
                who = ctx.name(after.get("adjutant"))
                news = [f"[bold]{ctx.tx('ev_revealed', card=card, who=who)}[/]"]
        return lines + news

    def _own_adjutant_news(self, view: View) -> list[str]:
        """At the start of play: what the human alone knows about the adjutant card."""
        ctx = self.ctx
        card = view.get("adjutant_card")
        if ctx.human is None or not card or not view.get("adjutant_known"):
            return []
        if view.get("adjutant") == ctx.human:
            return [f"[bold]{ctx.tx('ev_you_adjutant', card=show_card(card))}[/]"]
        if view.get("napoleon") == ctx.human and view.get("alone"):
            return [f"[bold]{ctx.tx('ev_own_card', card=show_card(card))}[/]"]
        return []

    def reveal_lines(self, before: View, after: View) -> list[str]:
        """'♠A is out: seat 4 is the adjutant', when the viewer learns it by this action's card."""
        ctx = self.ctx
        card = after.get("adjutant_card")
        if not card or before.get("phase") != "play" or before.get("adjutant_known"):
            return []
        if after.get("phase") == "play":
            if not after.get("adjutant_known"):
                return []
            alone, adj = bool(after.get("alone")), after.get("adjutant")
        else:  # the game ended with this card: was the adjutant card in the last trick?
            tricks = after.get("tricks") or []
            if not tricks or "adjutant_revealed" not in tricks[-1]:
                return []
            adj = tricks[-1]["adjutant_revealed"]
            alone = adj == after.get("napoleon")
        if alone:
            return [f"[bold]{ctx.tx('ev_revealed_alone', card=show_card(card))}[/]"]
        return [f"[bold]{ctx.tx('ev_revealed', card=show_card(card), who=ctx.name(adj))}[/]"]

    def story_lines(self, g: torampu.Game, before: View, after: View) -> list[str]:
        """At the start of play, a replay tells who secretly holds the adjutant card."""
        if after.get("phase") != "play" or before.get("phase") == "play":
            return []
        card = after.get("adjutant_card")
        if not card or after.get("alone_declared"):
            return []
        ctx = self.ctx
        holder = next((s for s in range(g.n) if card in (g.view(s).get("hand") or [])), None)
        if holder is None:
            return [f"[dim]{ctx.tx('ev_card_nowhere', card=show_card(card))}[/]"]
        line = ctx.tx("ev_secret_holder", card=show_card(card), who=ctx.name(holder))
        return [f"[dim]{line}[/]"]

    def result_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        if "napoleon" not in res:
            return super().result_lines(view)
        adj = res.get("adjutant")
        outcome = ctx.tx("army_wins") if res.get("army_won") else ctx.tx("allies_win")
        head = ctx.tx(
            "result_army",
            nap=ctx.name(res["napoleon"]),
            adj=ctx.tx("result_with", who=ctx.name(adj)) if adj is not None else "",
            army=res.get("army_honors"),
            bid=show_bid(res.get("contract")),
            outcome=outcome,
        )
        lines = [f"[bold]{head}[/]"]
        if res.get("alone"):
            why = (
                ctx.tx("why_declared")
                if res.get("alone_declared")
                else ctx.tx("why_card", card=show_card(res.get("adjutant_card") or "-"))
            )
            lines.append(ctx.tx("res_alone", why=why))
        if res.get("discarded_honors"):
            side = view.get("rules", {}).get("discarded_honors", "allies")
            lines.append(
                ctx.tx(
                    "res_discarded",
                    n=res["discarded_honors"],
                    side=ctx.tx(f"side_{side}"),
                )
            )
        if res.get("early_end"):
            lines.append(ctx.tx("res_early"))
        if res.get("doubled"):
            lines.append(ctx.tx("res_all20"))
        if res.get("redeals"):
            lines.append(ctx.tx("res_redeals", n=res["redeals"]))
        return lines

    def score_columns(self, view: View) -> list[tuple[str, str]]:
        return [(self.ctx.tx("col_role"), "left"), (self.ctx.tx("col_honors"), "right")]

    def score_cells(self, view: View, seat: int) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        if seat == res.get("napoleon"):
            role = f"[bold]{ctx.tx('napoleon')}[/]"
        elif seat == res.get("adjutant"):
            role = ctx.tx("adjutant")
        else:
            role = ctx.tx("ally")
        counts = view.get("honor_counts") or [0] * len(res.get("scores", []))
        return [role, str(counts[seat])]


# ------------------------------------------------------------------------------------ Nap
_NAP_STAKES: dict[str, tuple[int, int]] = {
    "two": (2, -2),
    "three": (3, -3),
    "misere": (3, -3),
    "four": (4, -4),
    "nap": (10, -6),
}
"""Each other player's payment to the declarer on success / from them on failure (rules.md §2);
Wellington and Blücher come from the rules (``wellington_points``, ``blucher_points``)."""


def _fold(word: str) -> str:
    return word.strip().lower().replace("è", "e").replace("ü", "u")


class NapRenderer(Renderer):
    """Nap: named bids with their stakes, trump set by the first lead, payments, redeals."""

    def __init__(self, ctx: Ctx) -> None:
        super().__init__(ctx)
        names = ctx.tx("bid_names").split(",")
        self.names = dict(zip(NAP_BIDS, names, strict=True))
        self.words: dict[str, str] = {}
        """What may be typed for each bid: its action name, and its names in both languages."""
        for lang in ("en", "ja"):
            other = Ctx(lang, ctx.n, ctx.human, ctx.game)
            for bid, name in zip(NAP_BIDS, other.tx("bid_names").split(","), strict=True):
                self.words[_fold(name)] = bid
        self.words |= {b: b for b in NAP_BIDS}

    def bid_name(self, bid: str | None) -> str:
        """``nap`` -> ``Nap`` (``ナップ``), bold."""
        if bid is None:
            return "-"
        return f"[bold]{escape(self.names.get(bid, bid))}[/]"

    def stakes(self, bid: str, rules: View) -> tuple[int, int]:
        if bid == "wellington":
            w, lo = rules.get("wellington_points", (20, -12))
            return int(w), int(lo)
        if bid == "blucher":
            w, lo = rules.get("blucher_points", (40, -40))
            return int(w), int(lo)
        return _NAP_STAKES.get(bid, (0, 0))

    def label(self, action: str) -> str:
        words = action.split()
        if words[0] == "bid" and len(words) == 2:
            return self.bid_name(words[1])
        return super().label(action)

    def menu_entries(self, legal: Sequence[str], view: View) -> list[tuple[str, str]]:
        entries = []
        for i, a in enumerate(legal, 1):
            label = self.label(a)
            if a.startswith("bid "):
                win, loss = self.stakes(a.split()[1], view.get("rules") or {})
                label += f" [dim]{self.ctx.tx('stakes', win=win, loss=-loss)}[/]"
            entries.append((str(i), label))
        return entries

    def read(self, text: str, legal: Sequence[str], view: View) -> str:
        words = _fold(text).split()
        if words[:1] == ["bid"]:
            words = words[1:]
        if len(words) == 1 and words[0] in self.words:
            return f"bid {self.words[words[0]]}"
        if len(words) == 1 and words[0] in ("p", "pass", "パス"):
            return "pass"
        stripped = text.strip()
        if view.get("phase") == "bid" and stripped and not stripped.isdecimal():
            raise IllegalAction(self.ctx.tx("bid_hint"))
        return super().read(text, legal, view)

    def head_lines(self, view: View, secret: bool) -> list[str]:
        ctx = self.ctx
        dealer = ctx.tx("dealer_line", who=ctx.name(view.get("dealer")))
        contract = view.get("contract")
        if view.get("declarer") is None or contract is None:
            return [dealer[:1].upper() + dealer[1:]]
        line = ctx.tx(
            "contract_line",
            who=ctx.name(view["declarer"]),
            bid=self.bid_name(contract),
            goal=self._goal(contract),
            trump=self._trump(view),
        )
        return [f"{line} · {dealer}"]

    def _goal(self, contract: str) -> str:
        if contract == "misere":
            return self.ctx.tx("goal_misere")
        need = NAP_BID_TRICKS[NAP_BIDS.index(contract)]
        return self.ctx.tx("goal_all") if need == 5 else self.ctx.tx("goal_n", n=need)

    def _trump(self, view: View) -> str:
        if view.get("contract") == "misere":
            return self.ctx.tx("no_trump")
        if view.get("trump") is None:
            return self.ctx.tx("trump_unset")
        return self.ctx.trump(view["trump"])

    def bid_lines(self, view: View) -> list[str]:
        lines = super().bid_lines(view)
        bids = [a for a in view.get("auction") or [] if a["action"] != "pass"]
        if bids:
            ctx = self.ctx
            high = bids[-1]
            lines.append(
                ctx.tx("high_bid", bid=self.label(high["action"]), who=ctx.name(high["seat"]))
            )
        return lines

    def count_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        declarer, contract = view.get("declarer"), view.get("contract")
        parts = []
        for s, c in enumerate(view.get("tricks_won") or []):
            part = f"{ctx.name(s)} {c}"
            if s == declarer and contract is not None and contract != "misere":
                need = NAP_BID_TRICKS[NAP_BIDS.index(contract)]
                part += f" ({ctx.tx('needs', n=need)})"
            parts.append(part)
        return [f"{ctx.tx('tricks_line')}: {' · '.join(parts)}"]

    def contract_lines(self, before: View, after: View) -> list[str]:
        if after.get("declarer") is None or before.get("declarer") is not None:
            return []
        ctx = self.ctx
        contract = after["contract"]
        line = ctx.tx(
            "ev_contract",
            who=ctx.name(after["declarer"]),
            bid=self.bid_name(contract),
            goal=self._goal(contract),
            trump=self._trump(after),
        )
        return [f"[bold]{line}[/]"]

    def card_lines(self, before: View, after: View, seat: int, action: str) -> list[str]:
        if after.get("trump") is None or before.get("trump") is not None:
            return []
        ctx = self.ctx
        card = action.split()[-1]
        line = ctx.tx(
            "ev_trump", who=ctx.name(seat), card=show_card(card), suit=show_suit(after["trump"])
        )
        return [f"[bold]{line}[/]"]

    def result_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        if res.get("declarer") is None or "made" not in res:
            return super().result_lines(view)
        who, contract = res["declarer"], res["contract"]
        took = res.get("declarer_tricks", 0)
        took_text = ctx.tx("took_0" if took == 0 else "took_1" if took == 1 else "took_n", n=took)
        made = bool(res["made"])
        outcome = ctx.tx("made" if made else "failed")
        if not made:
            need = NAP_BID_TRICKS[NAP_BIDS.index(contract)]
            if contract == "misere":
                outcome += ctx.tx("needed_misere")
            else:
                outcome += ctx.tx("needed_all") if need == 5 else ctx.tx("needed", n=need)
        trump = ctx.tx("no_trump") if res.get("trump") is None else ctx.trump(res["trump"])
        head = ctx.tx(
            "res",
            who=ctx.name(who),
            bid=self.bid_name(contract),
            trump=trump,
            took=took_text,
            outcome=outcome,
        )
        total = res["scores"][who]
        per = abs(total) // max(1, len(res["scores"]) - 1)
        key = "pay_in" if total > 0 else "pay_out"
        pay = ctx.tx(key, per=per, who=ctx.name(who), total=score(total))
        lines = [f"[bold]{head}[/]", pay]
        if res.get("early_end"):
            lines.append(ctx.tx("early", n=len(view.get("tricks") or [])))
        if res.get("redeals"):
            lines.append(ctx.tx("redeals", n=res["redeals"]))
        return lines

    def score_columns(self, view: View) -> list[tuple[str, str]]:
        return [(self.ctx.tx("col_role"), "left"), (self.ctx.tx("col_tricks"), "right")]

    def score_cells(self, view: View, seat: int) -> list[str]:
        res = view.get("result") or {}
        role = ""
        if seat == res.get("declarer"):
            role = f"{self.ctx.tx('declarer')}: {self.bid_name(res.get('contract'))}"
        return [role, str(view["tricks_won"][seat])]

    def after_game(self, st: View) -> list[RenderableType]:
        return self.final(st)[1:]


# ------------------------------------------------------------------------------------ Hell
class HellRenderer(Renderer):
    """Hell: deals of 1..max..1 cards, the upcard's trump, bids with the hook, the score sheet."""

    def header(self, g: torampu.Game, no: int, total: int) -> str:
        ctx = self.ctx
        k = int(g.view(None).get("cards", 1))
        cards = ctx.tx("cards_1") if k == 1 else ctx.tx("cards_n", n=k)
        dealer = ctx.name(g.dealer)
        return ctx.tx(
            "header",
            no=no,
            total=total,
            game=ctx.game_name(g.name),
            cards=cards,
            players=g.n,
            dealer=dealer,
        )

    def intro_lines(self, view: View) -> list[str]:
        return [self._upcard(view)]

    def _upcard(self, view: View) -> str:
        card, trump = view.get("upcard"), view.get("trump")
        return self.ctx.tx("upcard", card=show_card(card or "-"), suit=show_suit(trump))

    def label(self, action: str) -> str:
        words = action.split()
        if words[0] == "bid" and len(words) == 2:
            return self.ctx.tx("ev_bid", bid=words[1])
        return super().label(action)

    def bid_words(self, action: str) -> str:
        return self.label(action)

    def head_lines(self, view: View, secret: bool) -> list[str]:
        ctx = self.ctx
        k = int(view.get("cards", 1))
        cards = ctx.tx("cards_1") if k == 1 else ctx.tx("cards_n", n=k)
        dealer = ctx.tx("dealer_line", who=ctx.name(view.get("dealer")))
        return [f"{self._upcard(view)} · {dealer} · {cards}"]

    def bid_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        bids: list[int | None] = list(view.get("bids") or [])
        dealer = view.get("dealer")
        n = len(bids)
        order = [(dealer + 1 + i) % n for i in range(n)] if isinstance(dealer, int) else []
        parts = [f"{ctx.name(s)}: {'–' if bids[s] is None else bids[s]}" for s in order]
        made = sum(b for b in bids if b is not None)
        total = ctx.tx("total", sum=made, cards=view.get("cards"))
        lines = [f"{ctx.tx('bids')}: {' · '.join(parts)} ({total})"]
        no = view.get("forbidden_bid")
        if no is not None:
            key = "forbidden_you" if dealer == ctx.human else "forbidden"
            lines.append(f"[yellow]{ctx.tx(key, k=no, cards=view.get('cards'))}[/]")
        return lines

    def count_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        bids = view.get("bids") or []
        parts = [
            f"{ctx.name(s)} {won}/{bids[s] if s < len(bids) else '-'}"
            for s, won in enumerate(view.get("tricks_won") or [])
        ]
        return [f"{ctx.tx('tricks_line')}: {' · '.join(parts)}"]

    def menu_entries(self, legal: Sequence[str], view: View) -> list[tuple[str, str]]:
        if view.get("phase") != "bid":
            return super().menu_entries(legal, view)
        return [(a.split()[1], "") for a in legal]  # the number to type is the bid

    def menu_title(self, view: View) -> str | None:
        # (the bids' row is numbers that are not menu numbers, where Nap's and the play's are:
        # a player from Nap typed 1 for the first entry and bid 1, a fifth review)
        return self.ctx.tx("hell_bid_menu") if view.get("phase") == "bid" else None

    def menu_hint(self, view: View, legal: Sequence[str], numbered: bool) -> str | None:
        if view.get("phase") != "bid":
            return super().menu_hint(view, legal, numbered)
        ctx = self.ctx
        hint = ctx.tx("bid_hint", low=0, high=view.get("cards"))
        no = view.get("forbidden_bid")
        return hint if no is None else f"{hint} {ctx.tx('menu_forbidden', k=no)}"

    def read(self, text: str, legal: Sequence[str], view: View) -> str:
        if view.get("phase") != "bid":
            return super().read(text, legal, view)
        words = text.strip().lower().split()
        if words[:1] in (["bid"], ["ビッド"]):
            words = words[1:]
        if len(words) == 1 and words[0].isdecimal() and len(words[0]) <= 3:  # (full-width too)
            return f"bid {int(words[0])}"
        raise IllegalAction(self.ctx.tx("bid_hint", low=0, high=view.get("cards")))

    def contract_lines(self, before: View, after: View) -> list[str]:
        if after.get("phase") == "bid" or before.get("phase") != "bid":
            return []
        ctx = self.ctx
        total = sum(b for b in after.get("bids") or [] if b is not None)
        cards = int(after.get("cards", 0))
        if total > cards:
            balance = ctx.tx("over", k=total - cards)
        elif total < cards:
            balance = ctx.tx("under", k=cards - total)
        else:
            balance = ctx.tx("even")
        return [ctx.tx("ev_bids_done", sum=total, cards=cards, balance=balance)]

    def result_lines(self, view: View) -> list[str]:
        ctx = self.ctx
        res = view.get("result") or {}
        exact, missed = [], []
        for s, (bid, took, pts) in enumerate(
            zip(res.get("bids", []), res.get("tricks", []), res.get("scores", []), strict=True)
        ):
            if bid == took:
                exact.append(ctx.tx("exact_one", who=ctx.name(s), bid=bid, score=score(pts)))
            else:
                missed.append(
                    ctx.tx("missed_one", who=ctx.name(s), bid=bid, took=took, score=score(pts))
                )
        sep = ctx.tx("sep")
        lines = []
        if exact:
            lines.append(ctx.tx("exact", list=sep.join(exact)))
        if missed:
            lines.append(ctx.tx("missed", list=sep.join(missed)))
        return lines

    def game_over(
        self, view: View, no: int, total: int, totals: Sequence[int] | None, playing: bool
    ) -> list[RenderableType]:
        if playing:  # the score sheet follows, with every bid and score
            return ["", *self.result_lines(view)]
        return super().game_over(view, no, total, totals, playing)

    def after_game(self, st: View) -> list[RenderableType]:
        return self.final(st)[1:]

    def final(self, st: View) -> list[RenderableType]:
        ctx = self.ctx
        heading = ctx.tx("sheet_title", n=st["games_played"], total=st["games"])
        return ["", f"[bold]{heading}[/]", self.sheet_table(st)]

    def sheet_table(self, st: View, width: int | None = None) -> Table:
        """The score sheet: a row per deal (the cards dealt and the upcard, then per seat its
        bid, the deal's score and the running total), then the totals; the dealer's bid is
        underlined, the leaders starred. When one line per deal would not fit ``width`` (the
        console's), each seat's running total goes on a second line."""
        ctx = self.ctx
        sheet: list[View] = st.get("sheet") or []
        totals: list[int] = list(st["totals"])
        bid_w = max((len(str(b)) for row in sheet for b in row["bids"]), default=1)
        pts_w = max((len(f"{v:+d}") for row in sheet for v in row["scores"]), default=2)
        tot_w = max(len(str(v)) for row in [*sheet, {"totals": totals}] for v in row["totals"])
        names = [ctx.name(s) for s in range(len(totals))]
        cell_w = [max(bid_w + pts_w + tot_w + 2, cell_len(name)) for name in names]
        needed = 2 + 6 + sum(cell_w) + 2 * (len(cell_w) + 1)
        one_line = needed <= (console.width if width is None else width)
        table = Table(
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            caption=ctx.tx("sheet_caption"),
            caption_justify="left",
            caption_style="dim",
        )
        table.add_column("#", justify="right")
        table.add_column(ctx.tx("col_cards"))
        for name in names:
            table.add_column(name, justify="right", no_wrap=True)
        for i, row in enumerate(sheet, 1):
            cells = []
            for s, (bid, pts, tot) in enumerate(
                zip(row["bids"], row["scores"], row["totals"], strict=True)
            ):
                b = f"[underline]{bid}[/]" if s == row.get("dealer") else str(bid)
                b = " " * (bid_w - len(str(bid))) + b
                pts_text = padded_score(pts, pts_w)
                sep = " " if one_line else "\n"
                cells.append(f"{b} {pts_text}{sep}[bold]{tot:>{tot_w}}[/]")
            cards = f"{row['cards']:>2} {show_card(row['upcard'])}"
            table.add_row(str(i), cards, *cells)
        if sheet:
            table.add_section()
            leaders = set(st.get("leaders", []))
            stars = [f"[bold]{v}[/]" + (" ★" if s in leaders else "") for s, v in enumerate(totals)]
            table.add_row("", ctx.tx("col_total"), *stars)
        return table


class GenericRenderer(Renderer):
    """A game without a renderer of its own: each play is told as it is made."""

    trick_game = False


_RENDERERS: dict[str, type[Renderer]] = {
    "napoleon": NapoleonRenderer,
    "nap": NapRenderer,
    "hell": HellRenderer,
}


def renderer_for(game: str, ctx: Ctx) -> Renderer:
    """The renderer of ``game`` (any other game is told generically); sets ``ctx.game``, so that
    the game's own words (``nap_…``, ``hell_…``, ``daifugo_…``) are used."""
    from torampu.cli.daifugo import DaifugoRenderer  # it builds on this module's Renderer

    ctx.game = game
    renderers: dict[str, type[Renderer]] = {**_RENDERERS, "daifugo": DaifugoRenderer}
    return renderers.get(game, GenericRenderer)(ctx)
