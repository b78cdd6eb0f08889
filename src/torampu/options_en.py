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
            "all_passed": "Play is back to the last player",
            "one_left": "One player yet to pass (modified server)",
            "everyone": "Everyone has passed (UECda)",
        },
        "lock_plays": {"004": "2 after a clear, then 3", "2": "Always 2 (UECda)"},
        "joker_suit": {"wild": "No suit", "lowest": "A free suit (UECda)"},
        "run_effects": {"top": "Highest card only", "any": "Every rank (UECda)"},
        "deal_from": {"titles": "By title", "seats": "By seat (UECda)"},
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


# game -> option name -> what the rule does, for players (the rules dialog's English text):
# plain English, values by their labels, cards as players write them, no option keys
DESCRIPTIONS_EN: dict[str, dict[str, str]] = {
    "napoleon": {
        "players": (
            "The number of players. The cards are dealt evenly and the rest, at least 2, form the "
            "widow: with 5 players, 10 cards each and a widow of 2 (3 with a joker)."
        ),
        "jokers": (
            "0 plays with 52 cards; 1 adds a joker (53 cards). The joker is not an honor, and its "
            "power is set by the Joker's role rule."
        ),
        "removed_cards": (
            "Cards taken out of the deck before dealing (none by default). With 4 players, low "
            "cards are often removed to leave 10 tricks and a 2-card widow; with Same two on, "
            "remove 3s or 4s rather than 2s."
        ),
        "min_bid": (
            "The fewest honors a bid may promise. There are 20 honors: the 10, J, Q, K and A of "
            "each suit."
        ),
        "max_bid": (
            "The most honors a bid may promise; 20 means all of them. Some house rules stop the "
            "bidding at 19."
        ),
        "all_pass": (
            "What happens when everyone passes: Deal again has the same dealer deal new hands; "
            "with First bidder is Napoleon, 12♠, the player who opened the bidding becomes the "
            "Napoleon, bidding 12 with spades as trumps."
        ),
        "no_trump": (
            "When on, a bid may name no trump suit (NT). It outranks a spade bid of the same "
            "number, and without trumps there is no right or left bower."
        ),
        "first_bidder": (
            "Who opens the bidding from the second game of a match: the player on the dealer's "
            "left, or the Napoleon of the last game."
        ),
        "pass_is_final": (
            "When on, a player who passes is out of the bidding for that deal. When off, a player "
            "who passed may bid again when the turn comes round."
        ),
        "adjutant_timing": (
            "When the Napoleon names the adjutant card: before taking the widow, or after seeing "
            "it. Whoever holds that card is the Napoleon's secret partner."
        ),
        "declare_alone": (
            "When on, the Napoleon may name no adjutant card and play alone against everyone, "
            "openly."
        ),
        "reveal_discards": (
            "Which of the cards the Napoleon discards after taking the widow are shown to "
            "everyone: honors only, all of them, or none."
        ),
        "discarded_honors": (
            "Who gets the honors the Napoleon discards: the allies, nobody, or Napoleon's army "
            "(the Napoleon and the adjutant)."
        ),
        "ura_jack_suit": (
            "Which suit the left bower (裏J, the other jack of the trump colour) belongs to when "
            "following and leading: its printed suit, or trump, in which case it counts as a "
            "trump."
        ),
        "first_trick_trumps": (
            "When off, ordinary trumps have no power on the first trick: it goes to the highest "
            "card of the suit led unless the mighty (♠A), a bower or the joker wins it."
        ),
        "same_two": (
            "When on, a trick in which every card is of the suit led goes to the 2 of that suit "
            "(セイムツー). The mighty, the bowers and a winning joker still beat it unless Same "
            "two beats Mighty is on."
        ),
        "same_two_joker": (
            "With Joker counts as the suit, a joker in the trick counts as the suit led (as a "
            "trump when the joker is the highest trump); with Joker stops same two, any joker in "
            "the trick cancels same two."
        ),
        "same_two_first_trick": (
            "When on, same two also applies to the first trick of a hand. When off, it starts from "
            "the second trick."
        ),
        "same_two_beats_specials": (
            "When on, the 2 that wins by same two beats even the mighty (♠A), the right and left "
            "bowers and the joker. When off, those cards still beat it."
        ),
        "yoromeki": (
            "When on, ♥Q beats the mighty (♠A) when both are in the same trick (よろめき); "
            "otherwise ♥Q is an ordinary card."
        ),
        "killers": (
            "When on, queens kill special cards in the same trick and take their strength: ♥Q the "
            "mighty, ♦Q the right bower (正J), ♣Q the left bower (裏J); a ♠Q in the trick steals "
            "the kill (横取り)."
        ),
        "joker_mode": (
            "Highest trump: the joker is the strongest card and a trump. Trump call: when it is "
            "led, everyone must play a trump if they can, and it ranks below the bowers (weak), "
            "above all (strong) or lowest of the trumps; played to another lead it never wins."
        ),
        "joker_call": (
            "A card the leader may lead with a call for the joker (♠3 or ♠8, or none): whoever "
            "holds the joker must then play it, and the called joker cannot win the trick."
        ),
        "early_end": (
            "When on, a hand stops as soon as its result is certain instead of playing out every "
            "trick."
        ),
        "early_end_judged": (
            "With The true teams, play stops once the result is settled, which may hint who the "
            "adjutant is; with Everyone at the table, only once it is settled whoever the hidden "
            "adjutant and discards might be."
        ),
        "scoring": (
            "Points table: a winning Napoleon gets +2 (alone +4), the adjutant +1 and each ally "
            "−1, all reversed when the Napoleon loses. Win +1, lose −1: every winner scores +1, "
            "every loser −1."
        ),
        "all_twenty": (
            "With Lost unless 20 was bid, a Napoleon's army that takes all 20 honors without "
            "having bid 20 loses, and any game in which all 20 are taken scores double. Normal has "
            "no such rule."
        ),
    },
    "nap": {
        "players": "The number of players; each is dealt five cards.",
        "deck": (
            "All 52 cards, or Low cards removed for a smaller deck: ace down to 9 for 3 players "
            "(24 cards), to 8 for 4 players (28), to 7 for 5 players (32)."
        ),
        "blucher": (
            "When on, a player may bid Blücher over a Wellington; like Nap and Wellington it needs "
            "all five tricks, and it pays more."
        ),
        "blucher_points": (
            "What each other player pays a Blücher bidder who takes all five tricks, and what the "
            "bidder pays each of them on failing."
        ),
        "wellington_points": (
            "What each other player pays a Wellington bidder who takes all five tricks, and what "
            "the bidder pays each of them on failing; the usual is 20 won, 12 paid."
        ),
        "wellington_leads_lowest": (
            "When on, a player who bids Wellington must always play the lowest card they are "
            "allowed to (2 lowest, ace highest)."
        ),
        "light_shuffle": (
            "When on, the cards are only gathered, cut and dealt three then two each between "
            "hands; they are shuffled only at the start and after a Nap or higher bid succeeds."
        ),
        "early_end": (
            "When on, a hand stops as soon as the bid is surely made or lost. When off, all five "
            "tricks are played."
        ),
    },
    "hell": {
        "players": (
            "The number of players. The deals go from 1 card each up to as many as the deck allows "
            "(10 with 5 players) and back down to 1."
        ),
        "hook": (
            "When on, the dealer, who bids last, may not bid the number that would make all the "
            "bids add up to the number of tricks, so someone has to miss."
        ),
        "exact_base": (
            "The points for taking exactly as many tricks as you bid, before the bonus per trick "
            "bid."
        ),
        "exact_per_trick": (
            "The bonus for each trick bid when you take exactly as many tricks as you bid; with "
            "the usual 10 and 3, a bid of 2 made exactly scores 16."
        ),
        "miss_per_trick": (
            "The points for each trick a missed bid is off by, over or under; with the usual −3, "
            "missing by 2 scores −6."
        ),
    },
    "daifugo": {
        "players": (
            "The number of players. All the cards are dealt, so the more players, the smaller the "
            "hands."
        ),
        "jokers": "How many jokers are in the deck: usually one; some house rules play with 3.",
        "joker_wild": (
            "When on, a joker may stand in for any card of a group or stairs. When off, a joker "
            "may only be played alone, where it beats any single card."
        ),
        "spade3_return": (
            "When on, ♠3 played alone beats a joker played alone and clears the table (スペ3返し)."
        ),
        "first_lead": (
            "The card whose holder plays first in the first game; that first play must include it."
        ),
        "later_lead": (
            "Who plays first from the second game on: the Daihinmin (last game's last player out), "
            "or whoever holds the opening card."
        ),
        "exchange": (
            "When on, from the second game the Daihinmin gives their 2 best cards to the Daifugo "
            "and the Hinmin their best card to the Fugo, who give back as many cards of their "
            "choice."
        ),
        "pass_rejoin": (
            "When on, a player who passed may play again later, before the table clears. When off, "
            "a pass keeps the player out until the table clears."
        ),
        "revolution": (
            "When on, playing four or more cards of one rank starts a revolution (革命): the order "
            "flips, 3 strongest and 2 weakest, until another revolution flips it back. The joker "
            "stays strongest."
        ),
        "eight_cut": (
            "When on, a play containing an 8 clears the table at once, and the player who made it "
            "leads again (8切り)."
        ),
        "eleven_back": (
            "When on, playing a J reverses the order of strength until the table clears; another J "
            "play turns it back."
        ),
        "five_skip": (
            "When on, playing 5s skips players after you: one 5 skips one player, two 5s skip "
            "three, three skip five. If the skip comes back round to you, the table clears."
        ),
        "seven_pass": (
            "When on, after playing 7s you may give the next player up to as many cards from your "
            "hand as 7s you played."
        ),
        "ten_discard": (
            "When on, after playing 10s you may discard up to as many cards from your hand as 10s "
            "you played."
        ),
        "queen_reverse": "When on, playing an odd number of Qs reverses the direction of play.",
        "sandstorm": (
            "When on, three 3s or four 4s (in a revolution, three 2s or four As) may be played on "
            "your turn over anything; the table clears and you lead. Four 4s make no revolution."
        ),
        "big_seven": (
            "When on, playing three 7s makes every player pass their whole hand to the next player."
        ),
        "coup": (
            "When on, three 9s flip the order like a revolution, and the order then stays that way "
            "for the rest of the game."
        ),
        "stairs": (
            "When on, three or more consecutive cards of one suit, such as ♠4 ♠5 ♠6, may be played "
            "at once as stairs (階段); only stronger stairs of the same length beat them."
        ),
        "stair_revolution": (
            "When on, stairs of five or more cards start a revolution, as four of a kind does."
        ),
        "stair_overlap": (
            "When on, stairs beat stairs of the same length that start lower (higher in a "
            "revolution), even if their ranks overlap. When off, the new stairs must lie wholly "
            "above the table's (below in a revolution)."
        ),
        "shike": (
            "When on, the cards are dealt to one more hand than there are players, and the extra "
            "hand is set aside unseen for the game; meant for tables with few players."
        ),
        "lock": (
            "When on, plays of the same suit or suits in a row lock the table (縛り): until it "
            "clears, only those suits may be played. Plays to lock says how many it takes."
        ),
        "strict_lock": (
            "When on, if plays of the same suits also go up one rank at a time, the lock is strict "
            "(激縛): until the table clears, only those suits at the next rank may be played."
        ),
        "reverse_lock": (
            "When on, the same suits one rank weaker than the cards on the table (a single or "
            "group without a joker) may be played on them, and they lock those suits at once "
            "(逆縛)."
        ),
        "miyako_ochi": (
            "When on, if someone else goes out first, the Daifugo of the last game drops out at "
            "once and becomes the Daihinmin (都落ち)."
        ),
        "defense": (
            "When on, each time the Daifugo keeps the title, the exchange between the Daifugo and "
            "the Daihinmin grows by one card; it is back to two once the title changes."
        ),
        "tenpen": (
            "When on, if the Daihinmin's hand holds only 3s to 10s (no joker), the Daihinmin swaps "
            "whole hands with the Daifugo, and there is no card exchange that game."
        ),
        "great_revolution": (
            "When on, if the Daihinmin goes out first, the game ends at once and all the titles "
            "are turned upside down."
        ),
        "forbidden_finish": (
            "Going out with a play that includes any card chosen here is a foul and ranks the "
            "player last: a 2 (even in a revolution), the joker, ♥K, or an 8-cut, 7-pass or "
            "10-discard made with a joker."
        ),
        "finish_stays": (
            "When on, the cards a player goes out with stay on the table for the next players to "
            "beat. When off, the table clears and the next player leads."
        ),
        "points": (
            "By rank: the Daifugo scores as many points as there are players, down to 1 for the "
            "Daihinmin. +2 +1 0 −1 −2: the Daifugo +2, Fugo +1, Heimin 0, Hinmin −1, Daihinmin −2."
        ),
        "first_lead_include": (
            "When on, whoever holds the opening card must include it in their first play. When "
            "off, they may lead with any play."
        ),
        "lead_pass": (
            "When on, the player whose turn it is to lead on an empty table may pass instead of "
            "playing."
        ),
        "flush_when": (
            "Play is back to the last player: it clears when all the others pass. Everyone has "
            "passed: the last player may then play on their own cards, and it clears when they "
            "pass too. One player yet to pass: it clears once all but one have passed."
        ),
        "stalemate_passes": (
            "If this many passes come in a row with no play, across cleared tables, the game ends "
            "and the players still in are ranked at random; 0 means never."
        ),
        "lock_plays": (
            "How many same-suit plays in a row make a lock. 2 after a clear, then 3: two when they "
            "are the first plays after the table clears, three later. Always 2: any two."
        ),
        "joker_unlocks": (
            "When on, a joker played alone ends a lock, so ♠3 may answer it whatever suit was "
            "locked."
        ),
        "joker_suit": (
            "Which suit a joker in a group has for locks: with No suit such a play never locks; "
            "with A free suit it takes the first of ♠ ♥ ♦ ♣ that the other cards leave free."
        ),
        "run_effects": (
            "Which cards of stairs trigger card effects such as the 8-cut: the highest card only, "
            "or every rank the stairs span (stairs through an 8 cut the table)."
        ),
        "deal_from": (
            "How later games are dealt: By title deals from the Daifugo down the titles, so the "
            "higher titles get any extra cards; By seat deals round the table from the Daifugo."
        ),
        "seat_change": (
            "In a match, the players take new random seats before the first game and then every N "
            "games; 0 means seats never change."
        ),
        "rank_reset": (
            "In a match, the titles are forgotten every N games, so the next game starts fresh "
            "with no card exchange; 0 means never."
        ),
    },
}

# game -> preset name -> one sentence for players saying what the preset is
# game -> preset -> its name for players in English (the code name is for the API and the CLI:
# the lobby showed "house-001" and "uecda-tndhms")
PRESET_NAMES_EN: dict[str, dict[str, str]] = {
    "napoleon": {
        "classic": "Basic",
        "classic-joker": "Basic with a joker",
        "killers": "Killer queens",
        "house-001": "House rules A",
        "napoleon-web": "napoleon-web's rules",
        "house-002": "House rules B",
    },
    "nap": {"standard": "Standard"},
    "hell": {"standard": "Standard"},
    "daifugo": {
        "standard": "Standard",
        "yaita": "Yaita style",
        "uecda": "UECda (computer tournament)",
        "uecda-tndhms": "UECda, modified server",
    },
}

PRESET_NOTES_EN: dict[str, dict[str, str]] = {
    "napoleon": {
        "classic": (
            "The basic rules: 52 cards, lowest bid 11; with 4 players all the discards are shown."
        ),
        "classic-joker": "The basic rules with one joker added, the strongest card and a trump.",
        "killers": (
            "The basic rules with the killer queens: ♥Q, ♦Q and ♣Q kill the mighty and the bowers, "
            "and ♠Q steals a kill."
        ),
        "house-001": (
            "A house-rule set: 53 cards, lowest bid 10, all discards shown, a weak trump-calling "
            "joker that ♠8 can call out, same two, ♥Q beating the mighty, and the points table."
        ),
        "napoleon-web": (
            "The rules of an online Napoleon program: 53 cards, bids 13 to 19, 12♠ for the first "
            "bidder if all pass, discarded honors for the army, the joker as lowest trump, same "
            "two unless a joker is played, ♥Q beating the mighty."
        ),
        "house-002": (
            "A house-rule set: 53 cards, no-trump bids, going alone, the left bower as a trump, no "
            "trump power on the first trick, same two, a strong joker that ♠3 can call out, and an "
            "early stop once clear to all."
        ),
    },
    "nap": {
        "standard": (
            "The usual rules: 52 cards, bids from Two up to Wellington, and a hand stops once the "
            "bid is made or lost."
        ),
    },
    "hell": {
        "standard": (
            "The usual rules: the dealer may not make the bids add up, an exact bid scores 10 + 3 "
            "per trick bid, and a miss costs 3 per trick off."
        ),
    },
    "daifugo": {
        "standard": (
            "The basic rules: one joker, the ♦3 holder plays first, with revolution, card "
            "exchange, stairs, 8-cut and ♠3 beating a lone joker."
        ),
        "yaita": (
            "A house-rule set (ヤイタ式) with nearly every rule on: 3 jokers, the ♦4 holder plays "
            "first, forbidden finishes, and all the special cards, locks and title rules."
        ),
        "uecda": (
            "The rules of the UECda computer Daihinmin tournament: 5 players, one joker, the ♦3 "
            "holder leads every game, a lock after any two same-suit plays, and the table clears "
            "only when everyone has passed."
        ),
        "uecda-tndhms": (
            "The UECda tournament rules as a modified tournament server plays them: the table "
            "clears once all but one of the players still in have passed."
        ),
    },
}
