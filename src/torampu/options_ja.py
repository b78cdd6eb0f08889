# ruff: noqa: E501  (Japanese text: each wide character counts twice toward the line length)
"""Japanese names and explanations of every rule option, preset note and choice value.

:func:`torampu.rules` adds them to each option as ``label_ja``, ``description_ja`` and (for a
``choice`` option) ``values_ja``, alongside the English ``description``; :func:`torampu.presets`
adds ``note_ja``. The terms are those of the rule sources (``shared/sources``: 000–002 for
Napoleon and Hell, 003 for Nap, 004 for Daifugo). ``tests/test_options_ja.py`` fails when an
option, a preset or a choice value has no Japanese text here.
"""

from __future__ import annotations

# game -> option name -> (label, description)
OPTIONS_JA: dict[str, dict[str, tuple[str, str]]] = {
    "napoleon": {
        "players": ("人数", "遊ぶ人数"),
        "jokers": ("ジョーカー", "0: 52枚で遊ぶ / 1: ジョーカーを入れた53枚で遊ぶ"),
        "removed_cards": (
            "抜くカード",
            "配る前に抜いておくカード (000: 4人なら小さい札を抜いて10トリック・伏せ札2枚にする。"
            "セイムツーありなら2ではなく3や4を抜く)",
        ),
        "min_bid": ("最低宣言枚数", "宣言できる絵札の最少枚数"),
        "max_bid": ("最高宣言枚数", "宣言できる絵札の最多枚数 (napoleon-web: 19)"),
        "all_pass": (
            "全員パスのとき",
            "全員がパスしたら配り直す (000) か、最初の宣言者が12♠でナポレオンになる (napoleon-web)",
        ),
        "no_trump": ("ノートランプ宣言", "切り札なし (ノートランプ) の宣言を認める"),
        "first_bidder": (
            "最初の宣言者",
            "2ゲーム目以降に宣言を始める人: 親の左隣、または前回のナポレオン",
        ),
        "pass_is_final": (
            "パスで降りる",
            "なし: 一度パスした人も後でまた宣言できる / あり: パスしたら宣言に戻れない",
        ),
        "adjutant_timing": (
            "副官指定の時期",
            "副官の札を指定するのは伏せ札を取る前か後か",
        ),
        "declare_alone": (
            "単独宣言",
            "ナポレオンが副官を指定せず、公開して1人で戦うことを認める",
        ),
        "reveal_discards": ("捨て札の公開", "ナポレオンが捨てた札のうち全員に見せるもの"),
        "discarded_honors": (
            "捨てた絵札の扱い",
            "ナポレオンが捨てた絵札を誰の取り分にするか: 連合軍、誰のものでもない、"
            "またはナポレオン軍 (napoleon-web)",
        ),
        "ura_jack_suit": (
            "裏Jのスート",
            "裏Jを札の印刷どおりのスートとして扱うか (000)、切り札として扱うか (002)",
        ),
        "first_trick_trumps": (
            "1巡目の切り札",
            "なし: 1巡目 (最初のトリック) では普通の切り札に効力がない (002)",
        ),
        "same_two": ("セイムツー", "全員が同じスートを出したトリックはそのスートの2が勝つ"),
        "same_two_joker": (
            "セイムツーとジョーカー",
            "トリックにジョーカーがあるとき: スートの札とみなす (請求ならどのスートでも、"
            "最強の切り札なら切り札) か、セイムツーを止める (napoleon-web) か",
        ),
        "same_two_first_trick": (
            "1巡目のセイムツー",
            "なし: 1巡目にはセイムツーを適用しない (001/002)",
        ),
        "same_two_beats_specials": (
            "セイムツーの強さ",
            "あり: セイムツーの2はオールマイティ・正J・裏J・リードのジョーカーにも勝つ",
        ),
        "yoromeki": ("よろめき", "同じトリックにオールマイティがあれば♥Qがそれに勝つ"),
        "killers": (
            "キラー",
            "キラーのQ: ♥Qがオールマイティを、♦Qが正Jを、♣Qが裏Jを倒し、♠Qはその勝ちを横取りする",
        ),
        "joker_mode": (
            "ジョーカーの強さ",
            "ジョーカーを最強の切り札とする (000) か、リードで切り札請求とする"
            " (001: 弱い請求、002: 強い請求、napoleon-web: 最弱の切り札) か",
        ),
        "joker_call": (
            "ジョーカー請求",
            "この札をコールしてリードするとジョーカーを出させる (002: ♠3、001: ♠8)",
        ),
        "early_end": ("途中終了", "勝敗が決まった時点でゲームを終える"),
        "early_end_judged": (
            "途中終了の判定",
            "勝敗が決まったかを何で判定するか: 本当の陣営 (続くかどうかで副官が誰か分かることがある) か、"
            "全員に見えていること (副官と伏せた捨て札のありうるどの場合でも決まったときだけ終える)",
        ),
        "scoring": (
            "得点方式",
            "得点表: 001の表 (+2/+1/−1、単独 +4/−1) / 勝ち+1・負け−1: 1ゲームごとに勝ち負けだけを数える",
        ),
        "all_twenty": (
            "20枚全取り",
            "宣言なしの全取りは負け: 20を宣言せずに絵札20枚を全部取ったナポレオン軍は負け、20枚取りのゲームは得点2倍",
        ),
    },
    "nap": {
        "players": ("人数", "遊ぶ人数"),
        "deck": (
            "使うカード",
            "小さい札を抜く: 3人はA〜9の24枚、4人はA〜8の28枚、5人はA〜7の32枚で遊ぶ",
        ),
        "blucher": ("ブリュッヘル", "ウェリントンより上のブリュッヘルの宣言を認める"),
        "blucher_points": ("ブリュッヘルの得点", "ブリュッヘルの [成功, 失敗] 時の1人あたりの得点"),
        "wellington_points": (
            "ウェリントンの得点",
            "ウェリントンの [成功, 失敗] 時の1人あたりの得点",
        ),
        "wellington_leads_lowest": (
            "ウェリントンの出し方",
            "ウェリントンの宣言者は出せる札のうち常に一番弱い札を出す",
        ),
        "light_shuffle": (
            "軽いシャッフル",
            "カットして3枚+2枚で配るだけにし、シャッフルは最初とナップ以上の成功の後だけにする",
        ),
        "early_end": ("途中終了", "宣言の成否が決まった時点でゲームを終える"),
    },
    "hell": {
        "players": ("人数", "遊ぶ人数"),
        "hook": (
            "親の宣言制限",
            "親は、全員の宣言の合計が配られた枚数と等しくなる数を宣言できない",
        ),
        "exact_base": ("的中の基本点", "予想した勝利回数がぴったり当たったときの基本点"),
        "exact_per_trick": ("的中の加算点", "的中したとき、予想した勝利回数1回ごとに加える点"),
        "miss_per_trick": (
            "はずれの点",
            "はずれたとき、予想と実際の勝利回数の差1回ごとの点",
        ),
    },
    "daifugo": {
        "players": ("人数", "遊ぶ人数"),
        "jokers": ("ジョーカーの枚数", "山に入れるジョーカーの枚数 (004のヤイタ式: 3枚)"),
        "joker_wild": (
            "ジョーカーの代用",
            "ジョーカーを2枚出し・階段で好きな札の代わりにできる。1枚で出せば最強の札",
        ),
        "spade3_return": ("スペ3返し", "♠3は1枚で出たジョーカーに勝ち、場を流す"),
        "first_lead": (
            "最初に出す札",
            "第1ゲームはこの札を持つ人が最初に出し、この札を含めて出す",
        ),
        "later_lead": (
            "2ゲーム目からの親",
            "2ゲーム目から最初に出す人: 大貧民、または最初に出す札を持つ人",
        ),
        "exchange": (
            "カード交換",
            "2ゲーム目から大貧民・貧民が最も強いカードを献上し、大富豪・富豪が好きなカードを返す",
        ),
        "pass_rejoin": (
            "パス後の復帰",
            "パスした人も同じ場でまた出せる (なし: 場が流れるまで出せない)",
        ),
        "revolution": ("革命", "同じ数字を4枚以上出すと強さが逆転する"),
        "eight_cut": ("8切り", "8を含めて出すと場が流れる"),
        "eleven_back": ("イレブンバック", "Jを出すと場が流れるまで強さが逆転する"),
        "five_skip": ("5とび", "5をk枚出すと次の2k−1人をとばす"),
        "seven_pass": ("7渡し", "7を出したら出した枚数まで次の人にカードを渡せる"),
        "ten_discard": ("10捨て", "10を出したら出した枚数までカードを捨てられる"),
        "queen_reverse": ("Qリバース", "Qを奇数枚出すと出す順番が逆回りになる"),
        "sandstorm": (
            "砂嵐",
            "3を3枚・4を4枚 (革命中は2を3枚・Aを4枚) はいつでも何の上にも出せて場を流す",
        ),
        "big_seven": ("ビッグセブン", "7を3枚出すと全員が手札を全部次の人に渡す"),
        "coup": ("クーデター", "9を3枚出すと革命になり、革命返しはできない"),
        "stairs": ("階段 (連番)", "同じスートで3枚以上続いた数字を一度に出せる"),
        "stair_revolution": ("連番革命", "5枚以上の階段で革命が起こる"),
        "stair_overlap": (
            "階段の重なり",
            "場の階段と数字が重なっていても、同じ枚数で始まりの数字が高ければ (革命中は低ければ) 出せる"
            " (004 ★18の例: ♠6〜10の革命に♦5〜9)。なしは★17の読み: 場の階段より全部上 (革命中は下)",
        ),
        "shike": (
            "シケ",
            "参加人数が少ないときは1人分多く配り、余った山は誰も見ずに流しておく (004)",
        ),
        "lock": ("縛り", "同じスートが続けて出ると、そのスートしか出せなくなる"),
        "strict_lock": (
            "激縛",
            "同じスートで次の数字が続けて出ると、そのスートの次の数字しか出せなくなる",
        ),
        "reverse_lock": ("逆縛", "同じスートで1つ下の数字を出すと一度で縛りになる"),
        "miyako_ochi": ("都落ち", "大富豪が1番にあがれなかったら、その場で脱落して大貧民になる"),
        "defense": ("防衛", "大富豪を続けて守ると、カード交換が1枚ずつ増える"),
        "tenpen": (
            "天変地異",
            "大貧民の手札が3〜10だけなら、大富豪と手札を全部交換する",
        ),
        "great_revolution": (
            "大革命",
            "大貧民が1番にあがるとそのゲームは終わり、全員の身分が逆転する",
        ),
        "forbidden_finish": (
            "反則上がり",
            "これらの札であがると反則で大貧民になる (ジョーカー入りの8切り・7渡し・10捨てを含む)",
        ),
        "finish_stays": ("あがり札の扱い", "あがった人の札は場に残り、次の人がその上に出す"),
        "points": (
            "得点",
            "順位点: 大富豪が人数分の点 … 大貧民が1点 / +2 +1 0 −1 −2: 合計0になる点",
        ),
        "first_lead_include": (
            "最初の札を含める",
            "最初に出す札を持つ人は、その札を含めて出す (なし: 何を出してもよい。UECda)",
        ),
        "lead_pass": ("親のパス", "場が空のときに最初に出す人もパスできる (UECda)"),
        "flush_when": (
            "場が流れる時",
            "最後に出した人に番が戻ったら流れる (004)、"
            "全員がパスするまで流れず、最後に出した人に番が戻る (UECdaの公式ルール)、"
            "またはまだパスしていない人が1人以下になったら流れる (改変された大会サーバー)",
        ),
        "stalemate_passes": (
            "連続パスで終了",
            "場が流れても続けてこの回数パスが続いたらゲーム終了、残りの順位は抽選 (UECda: 20)。0は終了しない",
        ),
        "lock_plays": (
            "縛りになる回数",
            "2回/3回: 場が流れた直後は2回、その後は3回続くと縛り (004) / 2回: いつでも2回続けば縛り (UECda)",
        ),
        "joker_unlocks": (
            "ジョーカーで縛り解除",
            "ジョーカー1枚出しで縛りが解け、♠3がどのスートでも返せる (UECda)",
        ),
        "joker_suit": (
            "縛りでのジョーカーのスート",
            "スートなし: 縛りにならない (004) / 空いているスート: 空いているスートのうち♠♥♦♣の順で最初のもの (UECda)",
        ),
        "run_effects": (
            "階段の効果",
            "8切りなどの効果を持つ数字: 階段の一番強い札だけ (004)、または階段に含まれるすべての数字 (UECda)",
        ),
        "deal_from": (
            "配り方",
            "2ゲーム目から大富豪から身分順に配る (004)、または席順に配る (UECda)",
        ),
        "seat_change": (
            "席替え",
            "対戦で1, N+1, 2N+1 … ゲーム目の前に席をくじで替える (UECda: 5)。0は替えない",
        ),
        "rank_reset": (
            "身分のリセット",
            "対戦でN+1, 2N+1 … ゲーム目の前に身分を忘れる (交換なし。UECda: 100)。0はリセットしない",
        ),
    },
}

# game -> option -> value -> Japanese label (choice options)
VALUES_JA: dict[str, dict[str, dict[str, str]]] = {
    "napoleon": {
        "first_bidder": {"dealer_left": "親の左隣", "last_napoleon": "前回のナポレオン"},
        "adjutant_timing": {
            "before_exchange": "伏せ札を取る前",
            "after_exchange": "伏せ札を取った後",
        },
        "reveal_discards": {"honors": "絵札だけ", "all": "すべて", "none": "見せない"},
        "discarded_honors": {
            "allies": "連合軍のもの",
            "nobody": "誰のものでもない",
            "napoleon": "ナポレオン軍のもの",
        },
        "all_pass": {"redeal": "配り直し", "first_bidder_12S": "最初の宣言者が12♠でナポレオン"},
        "same_two_joker": {"matches": "スートの札とみなす", "blocks": "セイムツーを止める"},
        "ura_jack_suit": {"own": "印刷どおりのスート (000)", "trump": "切り札 (002)"},
        "joker_mode": {
            "trump_top": "最強の切り札 (000)",
            "request_weak": "切り札請求・弱 (001)",
            "request_strong": "切り札請求・強 (002)",
            "request_lowest": "切り札請求・最弱の切り札 (napoleon-web)",
        },
        "joker_call": {"none": "なし", "3S": "♠3", "8S": "♠8"},
        "scoring": {"points": "得点表 (001)", "win_loss": "勝ち+1・負け−1"},
        "all_twenty": {"normal": "通常", "lose": "宣言なしの全取りは負け"},
        "early_end_judged": {
            "true_teams": "本当の陣営で判定",
            "public": "全員に見えていることで判定",
        },
    },
    "nap": {"deck": {"full": "52枚すべて", "short": "小さい札を抜く"}},
    "hell": {},
    "daifugo": {
        "first_lead": {"3D": "♦3", "4D": "♦4", "3C": "♣3", "3H": "♥3", "3S": "♠3"},
        "later_lead": {"daihinmin": "大貧民", "first_lead": "最初に出す札を持つ人"},
        "points": {"rank": "順位点", "zero_sum": "+2 +1 0 −1 −2"},
        "flush_when": {
            "all_passed": "最後に出した人に戻ったら (004)",
            "one_left": "残り1人以下になったら (改変された大会サーバー)",
            "everyone": "全員がパスしたら (UECda)",
        },
        "lock_plays": {"004": "2回/3回 (004)", "2": "2回 (UECda)"},
        "joker_suit": {"wild": "スートなし (004)", "lowest": "空いているスート (UECda)"},
        "run_effects": {"top": "一番強い札 (004)", "any": "すべての数字 (UECda)"},
        "deal_from": {"titles": "身分順 (004)", "seats": "席順 (UECda)"},
    },
}

# game -> option -> member -> Japanese label (set options)
MEMBERS_JA: dict[str, dict[str, dict[str, str]]] = {
    "daifugo": {
        "forbidden_finish": {
            "2": "2",
            "JK": "ジョーカー",
            "KH": "♥K",
            "8JK": "ジョーカー入りの8切り・7渡し・10捨て",
        }
    },
}

# game -> preset -> (Japanese name, Japanese note)
PRESETS_JA: dict[str, dict[str, tuple[str, str]]] = {
    "napoleon": {
        "classic": ("基本", "基本ルール: 52枚、最低宣言11。4人なら捨て札はすべて公開"),
        "classic-joker": ("基本+ジョーカー", "基本ルールにジョーカーを加える (最強の切り札)"),
        "killers": ("キラーあり", "基本ルールにキラーのQと♠Qの横取りを加える"),
        "house-001": (
            "ハウスルールA",
            "53枚、最低宣言10、弱い切り札請求、♠8コール、セイムツー、よろめき、得点表",
        ),
        "napoleon-web": (
            "napoleon-webのルール",
            "オンライン対戦のnapoleon-webと同じ: 53枚、宣言13〜19、全員パスなら最初の宣言者が12♠、"
            "捨てた絵札はナポレオン軍、ジョーカーは最弱の切り札、セイムツー (ジョーカーがあれば無効)、よろめき",
        ),
        "house-002": (
            "ハウスルールB",
            "53枚、ノートランプ宣言、単独、裏Jは切り札、1巡目は切り札なし、"
            "強い切り札請求、♠3コール、途中終了 (全員に明らかになったとき)",
        ),
    },
    "nap": {"standard": ("標準", "よく遊ばれるルール: 52枚、ツー〜ウェリントン、途中終了")},
    "hell": {
        "standard": (
            "標準",
            "よく遊ばれるルール: 親の宣言制限あり、的中は10+3×予想、はずれは差1回ごとに−3",
        )
    },
    "daifugo": {
        "standard": (
            "標準",
            "基本ルール: ジョーカー1枚、♦3から、革命・カード交換・階段・8切りあり",
        ),
        "yaita": (
            "ヤイタ式",
            "ヤイタ式のローカルルール: ジョーカー3枚、♦4から、ローカルルールすべてあり",
        ),
        "uecda": (
            "UECda",
            "コンピュータ大貧民大会 (UECda) のルール: 5人、ジョーカー1枚、毎ゲーム♦3から、"
            "カード交換・革命・8切り・縛り・階段、全員がパスするまで場は流れない、席と身分は大会サーバーと同じ",
        ),
        "uecda-tndhms": (
            "UECda (改変サーバー)",
            "研究用に改変された大会サーバー (s1300097) と同じく、まだパスしていない人が1人以下になったら場が流れる",
        ),
    },
}


def option_ja(game: str, name: str) -> tuple[str, str]:
    """(label, description) of an option in Japanese; KeyError names what is missing."""
    try:
        return OPTIONS_JA[game][name]
    except KeyError:
        raise KeyError(f"no Japanese text for option {name!r} of {game}") from None
