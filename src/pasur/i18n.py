"""The words people see, in English and Persian, with the names Persian players use (Sur, Haft
Khaj, Sarbaz). ``text("round", "fa", number=2)``; card notation (``7♣``) stays as it is."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "fa")

_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

CATALOG: dict[str, tuple[str, str]] = {
    # key: (English, Persian)
    "title": ("Pasur", "پاسور"),
    "round": ("Round {number}", "دست {number}"),
    "deal": ("deal {number} of {deals}", "پخش {number} از {deals}"),
    "pack": ("pack {count}", "دسته {count}"),
    "target": ("to {target}", "تا {target}"),
    "table": ("Table", "زمین"),
    "table_empty": ("(empty)", "(خالی)"),
    "hand_of": ("Hand ({name})", "کارت‌های {name}"),
    "round_start": ("Round {number}, first to play: {name}", "دست {number}، شروع با {name}"),
    "scores": ("Scores", "امتیازها"),
    "quit": ("Stopped.", "متوقف شد."),
    "cards_held": ("{count} in hand", "{count} کارت در دست"),
    "turn": ("To play: {name}", "نوبت {name}"),
    "you": ("You", "شما"),
    "player": ("Player {number}", "بازیکن {number}"),
    "surs": ("Surs {count}", "سور {count}"),
    "clubs": ("clubs {count}", "خاج {count}"),
    "lays_down": ("{name}: {card} to the table", "{name}: {card} روی زمین"),
    "takes": ("{name}: {card} takes {take}", "{name}: {card} برمی‌دارد {take}"),
    "takes_sur": ("{name}: {card} takes {take} — Sur!", "{name}: {card} برمی‌دارد {take} — سور!"),
    "last_capture": ("last capture, {name}, takes {cards}", "آخرین برداشت با {name}: {cards}"),
    "choose_capture": ("{card} can take several ways: choose one", "{card} چند برداشت دارد: یکی را انتخاب کنید"),
    "lay_down_option": ("lay it down", "زمین بگذار"),
    "no_such_card": ("There is no card {number} in your hand.", "کارت شماره {number} در دست شما نیست."),
    "illegal": ("Not legal: {reason}", "مجاز نیست: {reason}"),
    "hint": ("Hint: {move}: {reason}", "راهنما: {move}: {reason}"),
    "round_over": ("Round {number} is over", "دست {number} تمام شد"),
    "aces": ("Aces", "تک‌ها"),
    "jacks": ("Jacks (Sarbaz)", "سربازها"),
    "round_points": ("Round points", "امتیاز دست"),
    "match_score": ("Match score", "امتیاز بازی"),
    "winner": ("Winner: {name}, {scores}.", "برنده: {name}، {scores}."),
    "continue": ("Press Enter to go on.", "برای ادامه Enter را بزنید."),
    "pass_to": (
        "Pass the keyboard to {name}. Press Enter when ready.",
        "صفحه‌کلید را به {name} بدهید. وقتی آماده بود Enter را بزند.",
    ),
    "saved": ("Saved to {path}.", "در {path} ذخیره شد."),
    "bot_fault": (
        "{bot} failed ({reason}); expert played for it.",
        "{bot} خطا داد ({reason})؛ ربات expert به جایش بازی کرد.",
    ),
    "prompt": (
        "Your move, {name} (number or move text; h hint, s save, q quit): ",
        "حرکت شما، {name} (شماره یا متن حرکت؛ h راهنما، s ذخیره، q خروج): ",
    ),
    "legal_moves": ("Legal moves:", "حرکت‌های مجاز:"),
    "input_ended": ("Input ended; the match stops here.", "ورودی تمام شد؛ بازی همین‌جا متوقف می‌شود."),
    "unknown_input": (
        "'{text}' is neither a move number (1-{count}) nor a legal move: {reason}",
        "«{text}» نه شماره حرکت (۱ تا {count}) است و نه حرکت مجاز: {reason}",
    ),
    "reason_sur": ("a Sur (5 points)", "سور (۵ امتیاز)"),
    "reason_points": ("takes {points}", "برمی‌دارد: {points}"),
    "reason_clubs": ("{count} clubs towards Haft Khaj", "{count} خاج برای هفت خاج"),
    "reason_cards": ("takes {count} cards", "{count} کارت برمی‌دارد"),
    "reason_lay": (
        "nothing better to take; leaves the next player little",
        "برداشت بهتری نیست؛ برای نفر بعد چیز کمی می‌ماند",
    ),
    "replay_position": ("move {index} of {count}", "حرکت {index} از {count}"),
}


def text(key: str, lang: str = "en", **values: Any) -> str:
    """A message in ``lang`` ("en" or "fa") with ``values`` filled in; Persian gets Persian digits."""
    english, persian = CATALOG[key]
    if lang == "fa":
        shown = {
            name: str(value).translate(_PERSIAN_DIGITS) if isinstance(value, int) else value
            for name, value in values.items()
        }
        return persian.format(**shown)
    return english.format(**values)
