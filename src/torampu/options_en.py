"""Short English names of every rule option and English texts of every choice value.

:func:`torampu.rules` adds them to each option as ``label`` and (for a ``choice`` or ``set``
option) ``values_en``, next to the longer English ``description`` and the Japanese texts of
:mod:`torampu.options_ja`. A label is what a player reads in the rules list: sentence case, a few
words, the game's usual English term (mighty, widow, adjutant, revolution, lock …) and, where
that term is not widespread in English, the Japanese of the rule sources (``shared/sources``:
000–002 for Napoleon and Hell, 003 for Nap, 004 for Daifugo) in parentheses. Daifugo's titles
are romanized as in the web UI (Daifugo … Daihinmin). ``tests/test_options_en.py`` fails when
an option or a choice value has no English text here.
"""

from __future__ import annotations

# game -> option name -> short English label
OPTIONS_EN: dict[str, dict[str, str]] = {
    "napoleon": {
        "players": "Players",
        "jokers": "Jokers",
        "removed_cards": "Cards removed",
        "min_bid": "Lowest bid",
        "max_bid": "Highest bid",
        "all_pass": "If everyone passes",
        "no_trump": "No-trump bids",
        "first_bidder": "First bidder",
        "pass_is_final": "A pass is final",
        "adjutant_timing": "Naming the adjutant",
        "declare_alone": "Going alone",
        "reveal_discards": "Discards shown",
        "discarded_honors": "Discarded honors count for",
        "ura_jack_suit": "Left bower's suit (裏J)",
        "first_trick_trumps": "Trumps on the first trick",
        "same_two": "Same two (セイムツー)",
        "same_two_joker": "Same two with a joker",
        "same_two_first_trick": "Same two on the first trick",
        "same_two_beats_specials": "Same two beats Mighty",
        "yoromeki": "♥Q beats Mighty (よろめき)",
        "killers": "Killer queens",
        "joker_mode": "Joker's role",
        "joker_call": "Joker-calling card",
        "early_end": "Stop when decided",
        "early_end_judged": "Decided, as seen by",
        "scoring": "Scoring",
        "all_twenty": "Taking all 20 honors",
    },
    "nap": {
        "players": "Players",
        "deck": "Deck",
        "blucher": "Blücher bid",
        "blucher_points": "Blücher payout",
        "wellington_points": "Wellington payout",
        "wellington_leads_lowest": "Wellington plays lowest",
        "light_shuffle": "Light shuffle",
        "early_end": "Stop when decided",
    },
    "hell": {
        "players": "Players",
        "hook": "Hook (dealer's limit)",
        "exact_base": "Exact bid: base score",
        "exact_per_trick": "Exact bid: per trick",
        "miss_per_trick": "Missed bid: per trick off",
    },
    "daifugo": {
        "players": "Players",
        "jokers": "Jokers",
        "joker_wild": "Wild jokers",
        "spade3_return": "Spade-3 return (スペ3返し)",
        "first_lead": "Opening card",
        "later_lead": "Leader from game 2",
        "exchange": "Card exchange",
        "pass_rejoin": "Play again after passing",
        "revolution": "Revolution (革命)",
        "eight_cut": "8-cut (8切り)",
        "eleven_back": "11-back (イレブンバック)",
        "five_skip": "5-skip (5とび)",
        "seven_pass": "7-pass (7渡し)",
        "ten_discard": "10-discard (10捨て)",
        "queen_reverse": "Q-reverse (Qリバース)",
        "sandstorm": "Sandstorm (砂嵐)",
        "big_seven": "Big seven (ビッグセブン)",
        "coup": "Coup (クーデター)",
        "stairs": "Stairs (階段)",
        "stair_revolution": "Stairs revolution",
        "stair_overlap": "Overlapping stairs",
        "shike": "Dead hand (シケ)",
        "lock": "Lock (縛り)",
        "strict_lock": "Strict lock (激縛)",
        "reverse_lock": "Reverse lock (逆縛)",
        "miyako_ochi": "Capital fall (都落ち)",
        "defense": "Title defense (防衛)",
        "tenpen": "Cataclysm (天変地異)",
        "great_revolution": "Great revolution (大革命)",
        "forbidden_finish": "Forbidden finishes (反則上がり)",
        "finish_stays": "Finishing cards stay",
        "points": "Points",
        "first_lead_include": "Lead with the opening card",
        "lead_pass": "Leader may pass",
        "flush_when": "Table clears when",
        "stalemate_passes": "Passes that end a game",
        "lock_plays": "Plays to lock",
        "joker_unlocks": "Joker breaks a lock",
        "joker_suit": "Joker's suit in a lock",
        "run_effects": "Card effects in stairs",
        "deal_from": "Dealing order",
        "seat_change": "Reseat every N games",
        "rank_reset": "Reset titles every N games",
    },
}

# game -> option -> value -> English text (choice options)
VALUES_EN: dict[str, dict[str, dict[str, str]]] = {
    "napoleon": {
        "early_end_judged": {
            "public": "Everyone at the table",
            "true_teams": "The true teams (hidden)",
        },
        "first_bidder": {"dealer_left": "Dealer's left", "last_napoleon": "Last Napoleon"},
        "adjutant_timing": {
            "before_exchange": "Before taking the widow",
            "after_exchange": "After taking the widow",
        },
        "reveal_discards": {"honors": "Honors only", "all": "All", "none": "None"},
        "discarded_honors": {
            "allies": "The allies",
            "nobody": "Nobody",
            "napoleon": "Napoleon's army",
        },
        "all_pass": {"redeal": "Deal again", "first_bidder_12S": "First bidder is Napoleon, 12♠"},
        "same_two_joker": {"matches": "Joker counts as the suit", "blocks": "Joker stops same two"},
        "ura_jack_suit": {"own": "Its printed suit (000)", "trump": "Trump (002)"},
        "joker_mode": {
            "trump_top": "Highest trump (000)",
            "request_weak": "Trump call, weak (001)",
            "request_strong": "Trump call, strong (002)",
            "request_lowest": "Trump call, lowest trump (napoleon-web)",
        },
        "joker_call": {"none": "None", "3S": "3♠", "8S": "8♠"},
        "scoring": {"points": "Points table (001)", "win_loss": "Win +1, lose −1"},
        "all_twenty": {"normal": "Normal", "lose": "Lost unless 20 was bid"},
    },
    "nap": {"deck": {"full": "All 52 cards", "short": "Low cards removed"}},
    "hell": {},
    "daifugo": {
        "first_lead": {"3D": "3♦", "4D": "4♦", "3C": "3♣", "3H": "3♥", "3S": "3♠"},
        "later_lead": {"daihinmin": "The Daihinmin", "first_lead": "Holder of the opening card"},
        "points": {"rank": "By rank (n … 1)", "zero_sum": "+2 +1 0 −1 −2"},
        "flush_when": {
            "all_passed": "Play is back to the last player (004)",
            "one_left": "One player yet to pass (modified server)",
            "everyone": "Everyone has passed (UECda)",
        },
        "lock_plays": {"004": "2 after a clear, then 3 (004)", "2": "Always 2 (UECda)"},
        "joker_suit": {"wild": "No suit (004)", "lowest": "A free suit (UECda)"},
        "run_effects": {"top": "Highest card only (004)", "any": "Every rank (UECda)"},
        "deal_from": {"titles": "By title (004)", "seats": "By seat (UECda)"},
    },
}

# game -> option -> member -> English text (set options)
MEMBERS_EN: dict[str, dict[str, dict[str, str]]] = {
    "daifugo": {
        "forbidden_finish": {
            "2": "2",
            "JK": "Joker",
            "KH": "K♥",
            "8JK": "8-cut, 7-pass or 10-discard with a joker",
        }
    },
}


def option_en(game: str, name: str) -> str:
    """The short English label of an option; KeyError names what is missing."""
    try:
        return OPTIONS_EN[game][name]
    except KeyError:
        raise KeyError(f"no English label for option {name!r} of {game}") from None
