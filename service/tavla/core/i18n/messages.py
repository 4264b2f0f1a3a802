"""Player-facing messages in English and Turkish: one catalogue for every error the engine sends.

The status message of an error is for developers (rule numbers, notation, field paths). This
module words the same errors for players, as the server's ``google.rpc.LocalizedMessage`` detail:
one sentence per ``ErrorInfo`` reason (:data:`REASONS`) and per request field of the common
``BadRequest`` cases (:data:`FIELDS`, matched by the longest prefix of the field path).

Points are the player's own numbering (their home board is 1-6, as each player counts the board,
seeds 000 and 004), never a rule number. The Turkish words are the seeds': pul (checker), hane
(point), kapı (a point the opponent holds), kırık pul (a checker on the bar), oyuna sokmak (enter),
toplamak (bear off), ev (home board), gele, mars, katmerli mars, küp (cube), küpsüz oyun (the
Crawford game, seed 001), mola (break), and the dice names of :mod:`tavla.core.i18n.names`.

The locale comes from the request metadata (:func:`pick_locale`): ``x-tavla-locale``, else
``accept-language``; English when neither names a locale of :data:`LOCALES`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tavla.core.i18n import names

LOCALES = ("en", "tr")
DEFAULT_LOCALE = "en"

# reason -> locale -> (sentence with the point, sentence without); {dice}: "5-1", {name}: "penç yek"
REASONS: dict[str, dict[str, tuple[str, str]]] = {
    "MUST_ENTER_FROM_BAR": {
        "en": ("", "You have a checker on the bar: bring it back in before you move any other checker."),
        "tr": ("", "Kırık pulun var: başka bir pulu oynatmadan önce onu oyuna sokmalısın."),
    },
    "POINT_BLOCKED": {
        "en": ("Point {point} is blocked: your opponent has two or more checkers there.",
               "That point is blocked: your opponent has two or more checkers there."),
        "tr": ("{point}. hane rakibin kapısı: orada rakibin iki ya da daha çok pulu var, oraya pul konmaz.",
               "Gitmek istediğin hane rakibin kapısı: orada rakibin iki ya da daha çok pulu var."),
    },
    "MUST_USE_BOTH_DICE": {
        "en": ("", "With {dice} both dice can be played, so you must play both."),
        "tr": ("", "{Name} ({dice}) attın; iki zar da oynanabiliyor, ikisini de oynamak zorundasın."),
    },
    "MUST_USE_LARGER_DIE": {
        "en": ("", "With {dice} only one die can be played, so you must play the larger one."),
        "tr": ("", "{Name} ({dice}) attın; zarlardan yalnızca biri oynanabiliyor, "
                   "büyük olanı oynamak zorundasın."),
    },
    "MUST_USE_MORE_DICE": {
        "en": ("", "You can play more of your dice ({dice}) than that: play as many as you can."),
        "tr": ("", "{Name} ({dice}) ile daha çok zar oynayabiliyorsun: oynanabildiği kadar oynamak zorundasın."),
    },
    "BEAR_OFF_NOT_ALLOWED": {
        "en": ("", "You cannot bear off that checker: all of your checkers must be in your home board "
                   "(points 1-6), and a die larger than its point bears off only your farthest checker."),
        "tr": ("", "Bu pulu toplayamazsın: toplamak için bütün pulların evinde (1-6. haneler) olmalı; zar "
                   "pulun hanesinden büyükse yalnızca en uzaktaki pulunu toplar."),
    },
    "NO_CHECKER_THERE": {
        "en": ("You have no checker on point {point}.", "You have no checker there."),
        "tr": ("{point}. hanede pulun yok.", "Orada pulun yok."),
    },
    "WRONG_DICE": {
        "en": ("", "Your dice ({dice}) do not make that move."),
        "tr": ("", "Bu hamle {name} ({dice}) zarıyla oynanamaz."),
    },
    "AMBIGUOUS_MOVE": {
        "en": ("", "That move can be played more than one way: move the checkers one by one."),
        "tr": ("", "Bu hamle birden çok biçimde oynanabiliyor: pulları tek tek oynat."),
    },
    "GAME_OVER": {
        "en": ("", "The game is over: {winner} has borne off all {checkers}."),
        "tr": ("", "Oyun bitti: {winner} {checkers} hepsini topladı."),
    },
    "CUBE_DISABLED": {
        "en": ("", "These rules have no doubling cube."),
        "tr": ("", "Bu kurallarda katlama küpü yok."),
    },
    "CRAWFORD_GAME": {
        "en": ("", "This is the Crawford game: it is played without the cube."),
        "tr": ("", "Bu oyun küpsüz oyun (Crawford kuralı): küp kullanılmaz."),
    },
    "CUBE_OWNED_BY_OPPONENT": {
        "en": ("", "Your opponent owns the cube: only they may double now."),
        "tr": ("", "Küp rakibinde: şimdi yalnızca o katlayabilir."),
    },
    "CUBE_AT_LIMIT": {
        "en": ("", "The cube is at its highest value: it cannot be doubled again."),
        "tr": ("", "Küp en yüksek değerinde: bir daha katlanamaz."),
    },
    "DEAD_CUBE": {
        "en": ("", "Doubling gains you nothing: winning this game at the current stake already wins "
                   "you the match."),
        "tr": ("", "Katlamak sana bir şey kazandırmaz: bu oyunu şimdiki değerle kazanmak maçı "
                   "kazanmana zaten yetiyor."),
    },
    "DOUBLE_PENDING": {
        "en": ("", "A double is waiting for its answer: take it or drop it first."),
        "tr": ("", "Küp cevap bekliyor: önce kabul et ya da reddet."),
    },
    "NO_DOUBLE_PENDING": {
        "en": ("", "Nobody has doubled: there is no cube to take or drop."),
        "tr": ("", "Kimse katlamadı: kabul edilecek ya da reddedilecek bir küp yok."),
    },
    "NOT_YOUR_DECISION": {
        "en": ("", "You offered this double: your opponent answers it."),
        "tr": ("", "Katlayan sensin: kabul etmek ya da reddetmek rakibine düşer."),
    },
    "BEAVER_NOT_ALLOWED": {
        "en": ("", "You may not beaver here: take or drop the double."),
        "tr": ("", "Burada küpü kabul edip hemen yeniden katlayamazsın (beaver): kabul et ya da reddet."),
    },
    "MATCH_OVER": {
        "en": ("", "The match is over."),
        "tr": ("", "Maç bitti."),
    },
    "RACCOON_NOT_ALLOWED": {
        "en": ("", "You may not raccoon here: take or drop the beaver."),
        "tr": ("", "Burada küpü yeniden katlayamazsın (raccoon): kabul et ya da reddet."),
    },
    "NOT_YOUR_TURN": {
        "en": ("", "It is not your turn."),
        "tr": ("", "Sıra sende değil."),
    },
    "WRONG_PHASE": {
        "en": ("", "That cannot be done at this moment of the game."),
        "tr": ("", "Oyunun bu anında bu yapılamaz."),
    },
    "MOVE_INCOMPLETE": {
        "en": ("", "Your move is not finished: play every die you can before you confirm it."),
        "tr": ("", "Hamlen bitmedi: onaylamadan önce oynayabildiğin bütün zarları oyna."),
    },
    "NOTHING_TO_UNDO": {
        "en": ("", "There is no step to take back."),
        "tr": ("", "Geri alınacak bir adım yok."),
    },
    "NOT_TIMED_OUT": {
        "en": ("", "Your opponent's time has not run out yet."),
        "tr": ("", "Rakibinin süresi henüz dolmadı."),
    },
    "NO_CLOCK": {
        "en": ("", "This match is played without a clock."),
        "tr": ("", "Bu maç süresiz oynanıyor."),
    },
    "STATE_SIGNATURE_INVALID": {
        "en": ("", "This game was not issued by the server or has been changed: reload the game."),
        "tr": ("", "Bu oyun sunucudan gelmemiş ya da değiştirilmiş: oyunu yeniden yükle."),
    },
    "STATE_KEY_UNKNOWN": {
        "en": ("", "This game was signed with a key the server no longer knows: start a new game."),
        "tr": ("", "Bu oyun sunucunun artık tanımadığı bir anahtarla imzalanmış: yeni bir oyun başlat."),
    },
    "STATE_UNSIGNED": {
        "en": ("", "This game was not issued by the server: start a new game."),
        "tr": ("", "Bu oyun sunucudan gelmemiş: yeni bir oyun başlat."),
    },
    "CLIENT_DICE_REFUSED": {
        "en": ("", "The server rolls the dice: your own dice are not accepted."),
        "tr": ("", "Zarları sunucu atar: kendi attığın zarlar kabul edilmez."),
    },
    "CLIENT_TIME_REFUSED": {
        "en": ("", "The server keeps the time: a time sent by your device is not accepted."),
        "tr": ("", "Süreyi sunucu tutar: cihazının gönderdiği süre kabul edilmez."),
    },
    "BREAK_ALREADY_TAKEN": {
        "en": ("", "You have already taken your break in this match."),
        "tr": ("", "Bu maçtaki molanı zaten kullandın."),
    },
}

# BadRequest field path prefix -> locale -> sentence; the longest matching prefix wins.
# A referee state the service cannot open or that does not hold together (any field inside it).
_REFEREE_STATE = {"en": "The game state is not one the service made, or it was altered: send back the state of the "
                        "last answer.",
                  "tr": "Oyun durumu servisin verdiği durum değil ya da değiştirilmiş: son yanıttaki durumu geri gönderin."}

FIELDS: dict[str, dict[str, str]] = {
    "": {"en": "Something in the request is not valid.", "tr": "İstekte geçersiz bir şey var."},
    "request": {"en": "The request could not be read.", "tr": "İstek okunamadı."},
    "dice": {"en": "The dice must be two numbers from 1 to 6.", "tr": "Zarlar 1 ile 6 arasında iki sayı olmalı."},
    "position": {"en": "This board cannot be read or is not a valid one for these rules (each player has "
                       "as many checkers as the game starts with, on the board, on the bar or borne off).",
                 "tr": "Bu dizilim okunamadı ya da bu kurallara göre geçerli değil (her oyuncunun tahtadaki, "
                       "kırık ve toplanmış pulları oyunun başındaki sayıyı tutmalı)."},
    "move": {"en": "That move cannot be read: move a checker, or write the move like 24/18 13/9.",
             "tr": "Bu hamle okunamadı: bir pul oynat ya da hamleyi 24/18 13/9 gibi yaz."},
    "steps": {"en": "Those steps are not valid: each step moves one checker from a point by one die.",
              "tr": "Bu adımlar geçersiz: her adım bir pulu bir haneden bir zar kadar ilerletir."},
    "ruleset": {"en": "These rules are not known: choose international backgammon or Turkish tavla.",
                "tr": "Bu kurallar tanınmıyor: uluslararası kuralları ya da Türk tavlasını seç."},
    "match": {"en": "The match score does not fit the rules.", "tr": "Maçın skoru bu kurallara uymuyor."},
    "match.length": {
        "en": "These rules do not allow this match length (Turkish tavla: 1, 3, 5, 7, 9 or 11 points).",
        "tr": "Bu kurallarla bu maç uzunluğu oynanmaz (tavlada maç 1, 3, 5, 7, 9 ya da 11 sayıdır).",
    },
    "match.cube": {
        "en": "The cube does not fit the rules or the score: no cube in these rules or in the Crawford game.",
        "tr": "Küp bu kurallara ya da skora uymuyor: bu kurallarda ya da küpsüz oyunda küp kullanılmaz.",
    },
    "given.roll_off": {
        "en": "The opening throws are not valid: each player throws one die, and a tie is thrown again.",
        "tr": "Başlangıç zarları geçersiz: her oyuncu birer zar atar, eşit gelirse yeniden atılır.",
    },
    "given.dice": {"en": "The first roll must be two numbers from 1 to 6, thrown by the player who starts.",
                   "tr": "İlk zar, başlayan oyuncunun attığı 1 ile 6 arasında iki sayı olmalı."},
    "seed": {"en": "These dice cannot be checked: start the dice check again, then roll.",
             "tr": "Bu zarlar doğrulanamıyor: zar doğrulamasını baştan başlatıp yeniden at."},
    "side": {"en": "Say which player acts: white or black.",
             "tr": "Hangi oyuncunun oynadığını seç: beyaz ya da siyah."},
    "action": {"en": "Choose a cube action: double, take or drop.",
               "tr": "Bir küp hamlesi seç: katla, kabul et ya da reddet."},
    "outcome": {"en": "That end of the game does not fit this match.", "tr": "Oyunun bu sonucu bu maça uymuyor."},
    "offer": {"en": "A resignation offers a single game, a gammon or a backgammon.",
              "tr": "Pes ederken tek oyun, mars ya da katmerli mars verilebilir."},
    "settings": {"en": "The clock settings are not valid.", "tr": "Süre ayarları geçersiz."},
    "state": {"en": "The clock does not fit its settings.", "tr": "Saat, süre ayarlarına uymuyor."},
    # the referee's action (RefereeService.Act); ApplyCubeAction's `action` keeps the line above
    **{f"action.{name}": {"en": "Choose one of the actions the last answer listed.",
                          "tr": "Son yanıtın listelediği eylemlerden birini seçin."}
       for name in ("kind", "side", "step", "resign_kind")},
    # the referee's signed state (RefereeService): its bytes and the fields inside them; AdvanceClock's
    # `state` (a ClockState) keeps the line above
    "state.state": _REFEREE_STATE,
    "state.key_id": _REFEREE_STATE,
    "state.signature": _REFEREE_STATE,
    "state.version": _REFEREE_STATE,
    "state.sequence": _REFEREE_STATE,
    "state.match": _REFEREE_STATE,
    "state.phase": _REFEREE_STATE,
    "state.position": _REFEREE_STATE,
    "state.on_roll": _REFEREE_STATE,
    "state.steps": _REFEREE_STATE,
    "state.resignation": _REFEREE_STATE,
    "state.resume_phase": _REFEREE_STATE,
    "state.clock": _REFEREE_STATE,
    "state.outcome": _REFEREE_STATE,
    "state.dice": _REFEREE_STATE,
    "state.turn": _REFEREE_STATE,
    "state.dice_commitment": _REFEREE_STATE,
    "state.record_digest": _REFEREE_STATE,
    "state.ruleset": _REFEREE_STATE,
    "event": {"en": "The clock event is not known.", "tr": "Saat olayı tanınmıyor."},
    "elapsed": {"en": "The time taken is not valid.", "tr": "Geçen süre geçersiz."},
}

SIDES = {"en": {"white": "White", "black": "Black"}, "tr": {"white": "Beyaz", "black": "Siyah"}}
# GAME_OVER's {checkers}: with the ErrorInfo's count ("15 checkers", "3 pulunun"), else without one
_CHECKERS = {"en": ("{n} checkers", "their checkers"), "tr": ("{n} pulunun", "pullarının")}
# GAME_OVER when the game did not end by bearing off (ErrorInfo metadata ``ending``)
_GAME_OVER = {"mother_pinned": {"en": "The game is over: {winner} has won by pinning the other mother.",
                                "tr": "Oyun bitti: {winner} rakibin ana pulunu kapatarak kazandı."},
              "draw": {"en": "The game is over: it is a draw, both mothers are pinned.",
                       "tr": "Oyun bitti: berabere, iki ana pul da kapandı."}}

# where the developer message names a point: "point 13 is held ...", "no checker ... on 8"
_POINT = re.compile(r"\bpoint (\d{1,2})\b|\bon (\d{1,2}) \(R4\)")


def pick_locale(x_tavla_locale: str | None = None, accept_language: str | None = None) -> str:
    """The locale of :data:`LOCALES` to answer in: ``x-tavla-locale`` if it names one, else the
    ``accept-language`` entry of highest weight that does (``tr-TR``, ``tr;q=0.9`` read as
    ``tr``), else :data:`DEFAULT_LOCALE`."""
    if x_tavla_locale:
        chosen = _primary(x_tavla_locale)
        if chosen in LOCALES:
            return chosen
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = 0.0
        if _primary(tag) in LOCALES and weight > 0:
            ranked.append((-weight, i, _primary(tag)))
    return min(ranked)[2] if ranked else DEFAULT_LOCALE


def _primary(tag: str) -> str:
    return tag.strip().replace("_", "-").split("-")[0].lower()


def for_reason(reason: str, locale: str, metadata: Mapping[str, str] | None = None,
               developer_message: str = "") -> str | None:
    """The player's sentence for an ``ErrorInfo`` reason, or ``None`` for a reason not listed.

    :param metadata: the ErrorInfo metadata: ``dice`` ("5-1"), ``winner`` ("white"); with
        ``GAME_OVER``, ``checkers`` (the variant's count a side, "15", "3") and ``ending``
        (``borne_off``, ``mother_pinned``, ``draw``).
    :param developer_message: the status message, read for the point a move was refused on.
    """
    texts = REASONS.get(reason)
    if texts is None:
        return None
    locale = locale if locale in LOCALES else DEFAULT_LOCALE
    with_point, without = texts[locale]
    metadata = metadata or {}
    found = _POINT.search(developer_message)
    point = (found.group(1) or found.group(2)) if found else ""
    template = with_point if point and with_point else without
    dice = metadata.get("dice", "")
    name = _roll_name(dice)
    if "{name}" in template.lower() and not name:  # no two dice to name: say the numbers only
        template = template.replace("{Name} ({dice})", "{dice}").replace("{name} ({dice})", "{dice}")
    winner = SIDES[locale].get(metadata.get("winner", ""), "the winner" if locale == "en" else "kazanan")
    if reason == "GAME_OVER":
        template = _GAME_OVER.get(metadata.get("ending", ""), {}).get(locale, template)
    count, no_count = _CHECKERS[locale]
    given = metadata.get("checkers", "")
    checkers = count.format(n=given) if given.isdigit() else no_count
    return template.format(point=point, dice=dice or "?", name=name, Name=name[:1].upper() + name[1:],
                           winner=winner, checkers=checkers)


_INDEX = re.compile(r"\[[^\]]*\]")


def for_field(field: str, locale: str) -> str:
    """The player's sentence for a ``BadRequest`` field violation (longest listed prefix; an
    element's index, ``dice[1]``, or a map key, ``headers['x']``, is read as the field itself)."""
    locale = locale if locale in LOCALES else DEFAULT_LOCALE
    parts = _INDEX.sub("", field).split(".")
    for n in range(len(parts), -1, -1):
        key = ".".join(parts[:n])
        if key in FIELDS:
            return FIELDS[key][locale]
    return FIELDS[""][locale]


def _roll_name(dice: str) -> str:
    values = dice.split("-")
    if len(values) != 2 or not all(v.isdigit() and 1 <= int(v) <= 6 for v in values):
        return ""
    return names.roll_name(int(values[0]), int(values[1]))
