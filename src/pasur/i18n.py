"""The words people see, in English and Persian, with the names Persian players use (Sur, Haft
Khaj, Sarbaz). ``text("round", "fa", number=2)``; cards are written with suit symbols (``7♣``),
ranks in the language's digits (`card_words()`, `move_words()`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LANGUAGES = ("en", "fa")

_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
_LATIN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
#: Unicode's left-to-right isolate and its end: cards inside Persian text keep their order.
_LEFT_TO_RIGHT, _END_ISOLATE = "\u2066", "\u2069"


def left_to_right(words: str) -> str:
    """``words`` kept left to right inside Persian text (cards, sums)."""
    return f"{_LEFT_TO_RIGHT}{words}{_END_ISOLATE}"


def isolated(words: str, lang: str) -> str:
    """``words`` kept left to right where ``lang`` runs right to left (Persian); as they are else."""
    return left_to_right(words) if lang == "fa" else words


def separator(lang: str) -> str:
    """What sets the parts of a line apart: a middle dot, but in Persian a bar, since a middle dot
    there reads as the digit zero (۰). The page's ``sep()`` says the same."""
    return " | " if lang == "fa" else " · "


def without_isolates(words: str) -> str:
    """Words for a terminal, which shows no isolates (the page turns them into its own marks)."""
    return words.replace(_LEFT_TO_RIGHT, "").replace(_END_ISOLATE, "")


#: Captures drawn on the Rules dialog with the game's own cards: the card played, the table, what
#: it takes, and the caption's catalog key (a test plays each through the engine).
RULES_EXAMPLES: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str], ...] = (
    ("7H", ("AH", "2C", "2D", "4S", "10C"), ("4S",), "example_eleven"),
    ("KS", ("KD", "KC", "5H"), ("KD",), "example_faces"),
    ("JS", ("QH", "3D", "JC", "5S"), ("3D", "5S", "JC"), "example_jack"),
    ("AC", ("10D",), ("10D",), "example_sur"),
)

#: Names the bots at a table go by, in seat order, so that seats are told apart.
BOT_PERSONAS = {"en": ("Shirin", "Bahram", "Laleh"), "fa": ("شیرین", "بهرام", "لاله")}
#: The levels people choose from, as Persian players call them.
PERSIAN_LEVELS = {
    "beginner": "مبتدی",
    "easy": "آسان",
    "medium": "متوسط",
    "hard": "سخت",
    "master": "استاد",
    "grandmaster": "استاد بزرگ",
}

#: The rules in a few lines (docs/RULES.md has every point), as the web page's Rules dialog and the
#: terminal's ``?`` show them: (title, lines) per language.
RULES_SUMMARY: dict[str, tuple[str, tuple[str, ...]]] = {
    "en": (
        "Pasur in brief",
        (
            "Each player gets 4 cards and 4 go face up on the table; when every hand is empty, 4 more"
            " each, until the pack is gone. A round is one pack.",
            "On your turn play one card. A numeral takes numerals on the table that add up with it to 11"
            " (a 7 takes a 4, or a 3 and an Ace).",
            "A King takes a King and a Queen a Queen. A Jack takes every numeral and Jack on the table,"
            " but no King or Queen. A card that can take must take; otherwise it stays on the table.",
            "Clearing the table is a Sur, worth 5 points (not with a Jack, not in the last deal, not for a"
            " side already on 50). Surs cancel tit for tat between sides.",
            "At the end of the round the last side to capture takes what is left on the table.",
            "Points: 7 clubs or more 7, the 2 of clubs 2, the 10 of diamonds 3, each Ace 1, each Jack 1.",
            "The match ends when a round leaves a side on the target (62 by default) with the highest score.",
            "With four players partners sit opposite (seats 1 and 3 against 2 and 4) and share one pile.",
        ),
    ),
    "fa": (
        "پاسور به کوتاهی",
        (
            "هر بازیکن ۴ کارت می‌گیرد و ۴ کارت رو به بالا روی زمین می‌آید؛ وقتی دست همه خالی شد، باز هر"
            " کدام ۴ کارت، تا دسته تمام شود. هر دست یک دسته کامل است.",
            "در نوبت خود یک کارت بازی کنید. کارت عددی، کارت‌های عددی زمین را که با آن جمعشان ۱۱ شود"
            " برمی‌دارد (۷ یک ۴ را، یا یک ۳ و یک تک را).",
            "شاه یک شاه و بی‌بی یک بی‌بی برمی‌دارد. سرباز همه کارت‌های عددی و سربازهای زمین را برمی‌دارد،"
            " ولی شاه و بی‌بی را نه. کارتی که بتواند بردارد باید بردارد؛ وگرنه روی زمین می‌ماند.",
            "خالی کردن زمین «سور» است و ۵ امتیاز دارد (نه با سرباز، نه در پخش آخر، نه برای طرفی که به ۵۰"
            " رسیده). سورهای دو طرف یکی‌یکی هم را خنثی می‌کنند.",
            "در پایان دست، هر چه روی زمین مانده به طرفی می‌رسد که آخرین بار برداشته است.",
            "امتیازها: ۷ خاج یا بیشتر ۷، دو خاج ۲، ده خشت ۳، هر تک ۱، هر سرباز ۱.",
            "بازی وقتی تمام می‌شود که پس از یک دست، طرفی به هدف (پیش‌فرض ۶۲) برسد و بیشترین امتیاز را داشته باشد.",
            "در بازی چهارنفره یارها روبه‌روی هم می‌نشینند (جای ۱ و ۳ در برابر ۲ و ۴) و برداشت‌هایشان یکی است.",
        ),
    ),
}

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
    "sur_cut": ("past the Sur cut-off", "از سقف سور گذشته"),
    "played_move": ("{name}: {move}", "{name}: {move}"),
    "played_sur": ("{name}: {move} — Sur!", "{name}: {move} — سور!"),
    "last_capture": ("last capture, {name}, takes {cards}", "آخرین برداشت با {name}: {cards}"),
    "choose_capture": ("{card} can take several ways: choose one", "{card} چند برداشت دارد: یکی را انتخاب کنید"),
    "no_such_card": ("There is no card {number} in your hand.", "کارت شماره {number} در دست شما نیست."),
    "illegal": ("Not legal: {reason}", "مجاز نیست: {reason}"),
    "hint": ("Hint: {reason}", "راهنما: {reason}"),
    "hint_why": ("Why: {why}", "چرا: {why}"),
    "hint_thinking": ("Finding a hint…", "در حال یافتن راهنما…"),
    "hint_forced": ("Only one move is legal: nothing to advise.", "تنها یک حرکت مجاز است: راهنمایی لازم نیست."),
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
    "save_failed": ("Could not save to {path}: {error}", "ذخیره در {path} نشد: {error}"),
    "save_offer": (
        "Save this match to replay it? File name (Enter: {path}; n: no): ",
        "این بازی برای بازبینی ذخیره شود؟ نام فایل (Enter: {path}؛ n: نه): ",
    ),
    "match_over_keys": ("The match is over: s saves it, q quits.", "بازی تمام شد: s ذخیره می‌کند، q خارج می‌شود."),
    "confirm_quit": (
        "Leave the match? {saving}\n\ny: leave · n: go on",
        "از بازی خارج می‌شوید؟ {saving}\n\nب (y): خروج | ن (n): ادامه",
    ),
    "quit_saves": ("It will be saved to {path}.", "در {path} ذخیره می‌شود."),
    "quit_unsaved": ("It will not be saved (s saves it first).", "ذخیره نمی‌شود (اول با s ذخیره کنید)."),
    "bot_name": ("{name} ({level})", "{name} ({level})"),
    "key_play": ("play", "بازی"),
    "key_hint": ("hint", "راهنما"),
    "key_type": ("type a move", "نوشتن حرکت"),
    "key_save": ("save", "ذخیره"),
    "key_theme": ("theme", "پوسته"),
    "key_quit": ("quit", "خروج"),
    "key_rules": ("rules", "قوانین"),
    "keys_full_screen": (
        "Keys: ← → choose a card · Enter plays it · 1–9 pick a capture · h hint · m type a move (7Cx4H)"
        " · s save · t theme · q quit · ? this page",
        "کلیدها: ← → انتخاب کارت | Enter بازی آن | ۱ تا ۹ انتخاب برداشت | h راهنما | m نوشتن حرکت (7Cx4H)"
        " | s ذخیره | t پوسته | q خروج | ? همین صفحه",
    ),
    "keys_plain": (
        "Type a move's number or its text (7Cx4H); h hint · s save · q quit · ? this page",
        "شماره حرکت یا متن آن را بنویسید (7Cx4H)؛ h راهنما | s ذخیره | q خروج | ? همین صفحه",
    ),
    "too_many_people": (
        "--humans {humans}: a table of {players} has room for {players} people at most",
        "--humans {humans}: سر میز {players} نفره حداکثر {players} نفر جا دارند",
    ),
    "bot_fault": (
        "{bot} failed ({reason}); expert played for it.",
        "{bot} خطا داد ({reason})؛ ربات expert به جایش بازی کرد.",
    ),
    "prompt": (
        "Your move, {name} (number or move text; h hint, s save, q quit, ? rules): ",
        "حرکت شما، {name} (شماره یا متن حرکت؛ h راهنما، s ذخیره، q خروج، ? قوانین): ",
    ),
    "legal_moves": ("Legal moves:", "حرکت‌های مجاز:"),
    "input_ended": ("Input ended; the match stops here.", "ورودی تمام شد؛ بازی همین‌جا متوقف می‌شود."),
    "unknown_input": (
        "'{text}' is neither a move number (1-{count}) nor a legal move: {reason}",
        "«{text}» نه شماره حرکت (۱ تا {count}) است و نه حرکت مجاز: {reason}",
    ),
    "gain_lay": ("{move}, taking nothing", "{move}، بی‌برداشت"),
    "gain_sur": ("{move}: a Sur", "{move}: سور"),
    "gain_points": ("{count} points", "{count} امتیاز"),
    "gain_points_one": ("1 point", "۱ امتیاز"),
    "gain_clubs": ("{count} clubs", "{count} خاج"),
    "gain_clubs_one": ("1 club", "۱ خاج"),
    "list_join": (", ", "، "),
    "clause_join": ("; ", "؛ "),
    "hint_edge": (
        "{points} points ± {margin} a round better than {other}",
        "{points} امتیاز ± {margin} در دست بهتر از {other}",
    ),
    "hint_edge_exact": (
        "{points} points better than {other}, every card known",
        "{points} امتیاز بهتر از {other}، با همه کارت‌های معلوم",
    ),
    "hint_close": ("about as good as {other}", "تقریباً هم‌ارزِ {other}"),
    "hint_all_alike": ("the other moves come to the same", "حرکت‌های دیگر همان نتیجه را دارند"),
    "replay_position": ("move {index} of {count}", "حرکت {index} از {count}"),
    "replay_choice": ("{name} to play, and plays {move}:", "نوبت {name}، که {move} را بازی می‌کند:"),
    "judged": ("{verdict}: {loss} · best {best} · {deals}", "{verdict}: {loss} | بهترین: {best} | {deals}"),
    "judged_best": ("{verdict}: the best move · {deals}", "{verdict}: بهترین حرکت | {deals}"),
    "judged_loss": (
        "loses {loss} points (between {low} and {high}, 95% sure)",
        "{loss} امتیاز از دست رفت (بین {low} و {high}، با ۹۵٪ اطمینان)",
    ),
    "judged_unbounded": (
        "loses about {loss} points, too few deals to say how surely",
        "حدود {loss} امتیاز از دست رفت؛ نمونه‌ها برای سنجیدن اطمینان کم است",
    ),
    "judged_deals": ("{count} deals solved", "{count} چینش حل‌شده"),
    "judged_cut_short": (
        "only {count} deals solved: the time ran out",
        "تنها {count} چینش حل شد: وقت تمام شد",
    ),
    "judged_exact": ("every card known", "همه کارت‌ها معلوم"),
    "judged_none": (
        "unclear: not one deal could be solved in the time",
        "نامعلوم: در این وقت حتی یک چینش حل نشد",
    ),
    "judged_loss_exact": ("loses {loss} points exactly", "دقیقاً {loss} امتیاز از دست رفت"),
    "bot_stderr": ("its last lines on standard error:", "آخرین سطرهایی که در خروجی خطا نوشت:"),
    "judged_forced": ("forced: the only legal move", "ناگزیر: تنها حرکت مجاز"),
    "under_a_tenth": ("under 0.1", "کمتر از ۰٫۱"),
    "lay_card": ("lay {card}", "گذاشتن {card}"),
    "puzzle_number": ("Puzzle {number} of {count} ({id})", "معمای {number} از {count} ({id})"),
    "puzzle_title": (
        "Deal {deal} of {deals}: you to play. One move is best by {points} points or more: find it.",
        "دست {deal} از {deals}: نوبت شماست. یک حرکت دست‌کم {points} امتیاز بهتر از بقیه است: پیدایش کنید.",
    ),
    "puzzle_title_twins": (
        "Deal {deal} of {deals}: you to play. Two twin moves are best, by {points} points or more: find one.",
        "دست {deal} از {deals}: نوبت شماست. دو حرکتِ هم‌ارز دست‌کم {points} امتیاز بهتر از بقیه‌اند: یکی را پیدا کنید.",
    ),
    "puzzle_known": (
        "Scores: you {mine}, the other side {theirs}; {surs}. Not yet seen: {unseen}",
        "امتیازها: شما {mine}، طرف مقابل {theirs}؛ {surs}. هنوز دیده نشده: {unseen}",
    ),
    "puzzle_surs_below": ("a Sur counts for a side below {cutoff}", "سور برای طرفی که زیر {cutoff} است حساب می‌شود"),
    "puzzle_surs_always": ("every Sur counts", "هر سوری حساب می‌شود"),
    "puzzle_piles": (
        "Your side has taken {mine} cards ({clubs} clubs, Surs: {surs}); the other side {theirs} "
        "({their_clubs} clubs, Surs: {their_surs})",
        "طرف شما {mine} کارت برداشته ({clubs} خاج، سور: {surs})؛ "
        "طرف مقابل {theirs} ({their_clubs} خاج، سور: {their_surs})",
    ),
    "puzzle_other_hand_one": (
        "The other player holds 1 card; the pack {pack}",
        "بازیکن دیگر ۱ کارت در دست دارد؛ دسته {pack}",
    ),
    "puzzle_other_hand": (
        "The other player holds {count} cards; the pack {pack}",
        "بازیکن دیگر {count} کارت در دست دارد؛ دسته {pack}",
    ),
    "puzzle_hand": ("Your hand", "دست شما"),
    "last_play": ("last: {move}", "آخرین: {move}"),
    "replay_not_judged": (
        "No review here: pasur replay FILE --analyze judges the moves (n and p then find the mistakes)",
        "بازبینی‌ای در کار نیست: pasur replay FILE --analyze حرکت‌ها را داوری می‌کند (سپس n و p اشتباه‌ها را پیدا می‌کنند)",
    ),
    "replay_no_more": ("No inaccuracy or mistake further that way", "در این سو نادقتی یا اشتباه دیگری نیست"),
    "your_move": ("Your move (number or text, q quits): ", "حرکت شما (شماره یا متن؛ q برای خروج): "),
    "puzzle_right": ("Right: {move} is best.", "درست است: {move} بهترین است."),
    "puzzle_wrong": ("Not the best: {move}.", "بهترین نیست: {move}."),
    "puzzle_answer": ("The answer: {moves}. Each move's points, exact:", "پاسخ: {moves}. امتیاز دقیق هر حرکت:"),
    "puzzle_line": ("The best line, every card known: {moves}", "بهترین ادامه، با همه کارت‌های معلوم: {moves}"),
    "line_you": ("you {move}", "شما {move}"),
    "line_them": ("they {move}", "حریف {move}"),
    "puzzle_answer_on_average": (
        "The answer: {moves}. Each move's points on average over the {count} ways the unseen cards may lie:",
        "پاسخ: {moves}. میانگین امتیاز هر حرکت در {count} چینش ممکنِ کارت‌های نادیده:",
    ),
    "puzzle_score": ("{right} of {count} answered right.", "{right} از {count} پاسخ درست."),
    "review_summary": (
        "{name}: accuracy {accuracy} of 100 (a mean loss of {loss} points over {choices} moves with a choice; "
        "100 when every move is the best, halved by every 0.35 points lost a move); "
        "mistakes: {mistakes}, inaccuracies: {inaccuracies}, between two verdicts: {between}, unclear: {unclear}",
        "{name}: دقت {accuracy} از ۱۰۰ (میانگین {loss} امتیاز از دست رفته در {choices} حرکتِ دارای انتخاب؛ "
        "۱۰۰ یعنی همه حرکت‌ها بهترین بودند و هر ۰٫۳۵ امتیاز از دست رفته در هر حرکت آن را نصف می‌کند)؛ "
        "اشتباه: {mistakes}، نادقیق: {inaccuracies}، میان دو داوری: {between}، نامعلوم: {unclear}",
    ),
    "review_largest": (
        "  round {round} move {move}: {played} lost {loss} points (best {best})",
        "  دور {round} حرکت {move}: {played}، {loss} امتیاز از دست رفت (بهترین: {best})",
    ),
    "reason_line": ("{who} {event} ({part}: {points} points)", "{who} {event} ({part}: {points} امتیاز)"),
    "reason_you": ("your side", "طرف شما"),
    "reason_they": ("the other side", "طرف مقابل"),
    "reason_event_sur": (
        "makes a Sur in {count} of {deals} solved deals after {first}, in {other} after {second}",
        "پس از {first} در {count} از {deals} چینش حل‌شده سور می‌زند و پس از {second} در {other}",
    ),
    "reason_event_haft_khaj": (
        "wins Haft Khaj in {count} of {deals} solved deals after {first}, in {other} after {second}",
        "پس از {first} در {count} از {deals} چینش حل‌شده هفت خاج را می‌برد و پس از {second} در {other}",
    ),
    "reason_event_ten_of_diamonds": (
        "takes the 10♦ in {count} of {deals} solved deals after {first}, in {other} after {second}",
        "پس از {first} در {count} از {deals} چینش حل‌شده ۱۰♦ را برمی‌دارد و پس از {second} در {other}",
    ),
    "reason_event_two_of_clubs": (
        "takes the 2♣ in {count} of {deals} solved deals after {first}, in {other} after {second}",
        "پس از {first} در {count} از {deals} چینش حل‌شده ۲♣ را برمی‌دارد و پس از {second} در {other}",
    ),
    "reason_event_aces": (
        "takes {count} Aces a deal on average after {first}, {other} after {second} ({deals} solved deals)",
        "پس از {first} به‌طور میانگین {count} تک در هر چینش برمی‌دارد و پس از {second} {other} ({deals} چینش حل‌شده)",
    ),
    "reason_event_jacks": (
        "takes {count} Jacks a deal on average after {first}, {other} after {second} ({deals} solved deals)",
        "پس از {first} به‌طور میانگین {count} سرباز در هر چینش برمی‌دارد و پس از {second} {other} ({deals} چینش حل‌شده)",
    ),
    "reason_exact_sur_one": (
        "makes a Sur after {first}, none after {second}",
        "پس از {first} سور می‌زند و پس از {second} نه",
    ),
    "reason_exact_sur": (
        "makes {count} Surs after {first}, {other} after {second}",
        "پس از {first} {count} سور می‌زند و پس از {second} {other} سور",
    ),
    "reason_exact_haft_khaj": (
        "wins Haft Khaj after {first}, not after {second}",
        "پس از {first} هفت خاج را می‌برد و پس از {second} نه",
    ),
    "reason_exact_ten_of_diamonds": (
        "takes the 10♦ after {first}, not after {second}",
        "پس از {first} ۱۰♦ را برمی‌دارد و پس از {second} نه",
    ),
    "reason_exact_two_of_clubs": (
        "takes the 2♣ after {first}, not after {second}",
        "پس از {first} ۲♣ را برمی‌دارد و پس از {second} نه",
    ),
    "reason_exact_aces": (
        "takes {count} of the Aces after {first}, {other} after {second}",
        "پس از {first} {count} تک برمی‌دارد و پس از {second} {other}",
    ),
    "reason_exact_jacks": (
        "takes {count} of the Jacks after {first}, {other} after {second}",
        "پس از {first} {count} سرباز برمی‌دارد و پس از {second} {other}",
    ),
    "reason_with_reply": ("after {worse}, {reply} — {parts}", "پس از {worse}، {reply} — {parts}"),
    "reason_reply": (
        "the other side's next move takes {cards} in {count} of {deals} solved deals",
        "حرکت بعدی طرف مقابل در {count} از {deals} چینش حل‌شده {cards} را برمی‌دارد",
    ),
    "reason_reply_sur": (
        "the other side's next move takes {cards}, a Sur, in {count} of {deals} solved deals",
        "حرکت بعدی طرف مقابل در {count} از {deals} چینش حل‌شده {cards} را برمی‌دارد و سور می‌زند",
    ),
    "reason_reply_exact": (
        "the other side's {card} takes {cards} next move",
        "طرف مقابل در حرکت بعد با {card}، {cards} را برمی‌دارد",
    ),
    "reason_reply_sur_exact": (
        "the other side's {card} sweeps {cards} next move: a Sur",
        "طرف مقابل در حرکت بعد با {card}، {cards} را برمی‌دارد و سور می‌زند",
    ),
    "reason_part_sur": ("Surs", "سورها"),
    "reason_part_haft_khaj": ("Haft Khaj", "هفت خاج"),
    "reason_part_ten_of_diamonds": ("the 10♦", "۱۰♦"),
    "reason_part_two_of_clubs": ("the 2♣", "۲♣"),
    "reason_part_aces": ("Aces", "تک‌ها"),
    "reason_part_jacks": ("Jacks", "سربازها"),
    "verdict_good": ("good", "خوب"),
    "verdict_inaccuracy": ("inaccuracy", "نادقیق"),
    "verdict_mistake": ("mistake", "اشتباه"),
    "verdict_good_or_inaccuracy": ("at most an inaccuracy", "حداکثر نادقیق"),
    "verdict_inaccuracy_or_mistake": ("an inaccuracy or a mistake", "نادقیق یا اشتباه"),
    "verdict_unclear": ("unclear", "نامعلوم"),
    "verdict_forced": ("forced", "ناگزیر"),
    # the Rules dialog's pictures (RULES_EXAMPLES)
    "example_eleven": (
        "A numeral takes numerals that make 11 with it: the 7♥ takes the 4♠ (7 + 4 = 11), or the 2♣ and"
        " the 2♦ instead; the A♥ and the 10♣ stay.",
        "کارت عددی، عددهایی را برمی‌دارد که با آن ۱۱ شوند:"
        f" با {left_to_right('۷♥')} می‌شود {left_to_right('۴♠')} را برداشت ({left_to_right('۷ + ۴ = ۱۱')})،"
        f" یا به جای آن {left_to_right('۲♣')} و {left_to_right('۲♦')} را؛"
        f" {left_to_right('A♥')} و {left_to_right('۱۰♣')} می‌مانند.",
    ),
    "example_faces": (
        "A King takes one King, and a Queen one Queen: the K♠ takes the K♦ or the K♣, never both.",
        "شاه یک شاه برمی‌دارد و بی‌بی یک بی‌بی:"
        f" با {left_to_right('K♠')} می‌شود {left_to_right('K♦')} یا {left_to_right('K♣')} را برداشت، هرگز هر دو را.",
    ),
    "example_jack": (
        "A Jack takes every numeral and Jack on the table, never a King or a Queen: the Q♥ stays.",
        f"سرباز همه عددها و سربازهای زمین را برمی‌دارد، هرگز شاه یا بی‌بی را: {left_to_right('Q♥')} می‌ماند.",
    ),
    "example_sur": (
        "Taking every card on the table is a Sur, 5 points: the A♣ takes the lone 10♦ (1 + 10 = 11).",
        "برداشتن همه کارت‌های زمین «سور» است، ۵ امتیاز:"
        f" {left_to_right('A♣')} تنها کارت زمین، {left_to_right('۱۰♦')}، را برمی‌دارد ({left_to_right('۱ + ۱۰ = ۱۱')}).",
    ),
    # the first-game lesson (pasur.coach.lesson): each rule told once, as it first arises
    "tip": ("Tip", "راهنما"),
    "lesson_welcome": (
        "Welcome to Pasur! You and your opponent take turns playing one card. A card can take cards"
        " from the table; what you take is yours, and some cards are worth points. Follow the tips,"
        " or play as you like.",
        "به پاسور خوش آمدید! شما و حریف به نوبت یک کارت بازی می‌کنید. هر کارت می‌تواند کارت‌هایی از"
        " زمین بردارد؛ آنچه برمی‌دارید مال شماست و بعضی کارت‌ها امتیاز دارند. راهنمایی‌ها را دنبال کنید،"
        " یا هر طور خواستید بازی کنید.",
    ),
    "lesson_eleven_now": (
        "A numeral takes the table's numerals that add up with it to 11: play {move} ({sum}).",
        "کارت عددی، کارت‌های عددی زمین را برمی‌دارد که با آن جمعشان ۱۱ شود: {move} را بازی کنید ({sum}).",
    ),
    "lesson_eleven_you": (
        "You took with a numeral: {move} ({sum}). A numeral takes numerals that add up with it to 11.",
        "با کارت عددی برداشتید: {move} ({sum}). کارت عددی، عددهایی را برمی‌دارد که با آن ۱۱ شوند.",
    ),
    "lesson_eleven_other": (
        "Your opponent took with a numeral: {move} ({sum}). A numeral takes numerals that add up with it to 11.",
        "حریف با کارت عددی برداشت: {move} ({sum}). کارت عددی، عددهایی را برمی‌دارد که با آن ۱۱ شوند.",
    ),
    "lesson_faces_now": (
        "A King takes one King from the table, and a Queen one Queen: play {move}.",
        "شاه یک شاه از زمین برمی‌دارد و بی‌بی یک بی‌بی: {move} را بازی کنید.",
    ),
    "lesson_faces_you": (
        "You played {move}: a King takes one King, and a Queen one Queen.",
        "{move} را بازی کردید: شاه یک شاه برمی‌دارد و بی‌بی یک بی‌بی.",
    ),
    "lesson_faces_other": (
        "Your opponent played {move}: a King takes one King, and a Queen one Queen.",
        "حریف {move} را بازی کرد: شاه یک شاه برمی‌دارد و بی‌بی یک بی‌بی.",
    ),
    "lesson_jack_now": (
        "A Jack takes every numeral and Jack on the table, but never a King or a Queen: play {move}."
        " Clearing the table with a Jack is no Sur.",
        "سرباز همه کارت‌های عددی و سربازهای زمین را برمی‌دارد، ولی هرگز شاه یا بی‌بی را: {move} را بازی کنید."
        " خالی کردن زمین با سرباز سور نیست.",
    ),
    "lesson_jack_you": (
        "You played {move}: a Jack takes every numeral and Jack on the table, never a King or a Queen,"
        " and clearing the table with it is no Sur.",
        "{move} را بازی کردید: سرباز همه عددها و سربازهای زمین را برمی‌دارد، هرگز شاه یا بی‌بی را،"
        " و خالی کردن زمین با آن سور نیست.",
    ),
    "lesson_jack_other": (
        "Your opponent played {move}: a Jack takes every numeral and Jack on the table, never a King or a"
        " Queen, and clearing the table with it is no Sur.",
        "حریف {move} را بازی کرد: سرباز همه عددها و سربازهای زمین را برمی‌دارد، هرگز شاه یا بی‌بی را،"
        " و خالی کردن زمین با آن سور نیست.",
    ),
    "lesson_sur_now": (
        "{move} takes every card on the table: that is a Sur, worth 5 points.",
        "{move} همه کارت‌های زمین را برمی‌دارد: این «سور» است و ۵ امتیاز دارد.",
    ),
    "lesson_sur_you": (
        "Sur! You cleared the table with {move}: 5 points. Surs cancel one for one between the sides.",
        "سور! با {move} زمین را خالی کردید: ۵ امتیاز. سورهای دو طرف یکی‌یکی هم را خنثی می‌کنند.",
    ),
    "lesson_sur_other": (
        "Sur: your opponent cleared the table with {move}, for 5 points. One Sur of yours cancels it.",
        "سور: حریف با {move} زمین را خالی کرد و ۵ امتیاز گرفت. یک سور شما آن را خنثی می‌کند.",
    ),
    "lesson_must_now": (
        "A card that can take must take: {cards} cannot be laid down now. You may play another card"
        " instead; one that takes nothing stays on the table.",
        "کارتی که بتواند بردارد باید بردارد: {cards} را حالا نمی‌شود روی زمین گذاشت. می‌توانید کارت دیگری"
        " بازی کنید؛ کارتی که چیزی برنمی‌دارد روی زمین می‌ماند.",
    ),
    "lesson_points_you": (
        "You took {cards}. At the round's end the 10♦ is worth 3 points, the 2♣ 2, and each Ace and Jack 1.",
        "{cards} را برداشتید. در پایان دست ۱۰♦ سه امتیاز دارد، ۲♣ دو امتیاز، و هر تک و هر سرباز یک امتیاز.",
    ),
    "lesson_points_other": (
        "Your opponent took {cards}. At the round's end the 10♦ is worth 3 points, the 2♣ 2, and each Ace and Jack 1.",
        "حریف {cards} را برداشت. در پایان دست ۱۰♦ سه امتیاز دارد، ۲♣ دو امتیاز، و هر تک و هر سرباز یک امتیاز.",
    ),
    "lesson_haft_khaj_you": (
        "You hold 7 clubs: Haft Khaj, 7 points at the round's end, whatever happens now.",
        "۷ خاج دارید: «هفت خاج»، ۷ امتیاز در پایان دست، هر چه بعد پیش بیاید.",
    ),
    "lesson_haft_khaj_other": (
        "Your opponent holds 7 clubs: Haft Khaj, 7 points to them at the round's end.",
        "حریف ۷ خاج دارد: «هفت خاج»، ۷ امتیاز برای او در پایان دست.",
    ),
    "lesson_deal": (
        "A new deal: 4 more cards each, and none to the table. Six deals make a round.",
        "پخش تازه: هر کدام ۴ کارت دیگر، و کارتی به زمین نمی‌آید. هر دست شش پخش است.",
    ),
    "lesson_last_deal": (
        "The last deal: no Sur now. When it ends, whoever took last takes every card left on the table.",
        "پخش آخر: حالا سوری نیست. در پایان، هر کس آخرین بار برداشته همه کارت‌های مانده روی زمین را برمی‌دارد.",
    ),
    "lesson_last_sweep_you_one": (
        "You took last, so the card left on the table is yours.",
        "آخرین بار شما برداشتید، پس کارت مانده روی زمین مال شماست.",
    ),
    "lesson_last_sweep_other_one": (
        "Your opponent took last, so the card left on the table is theirs.",
        "آخرین بار حریف برداشت، پس کارت مانده روی زمین مال اوست.",
    ),
    "lesson_last_sweep_you": (
        "You took last, so the {count} cards left on the table are yours.",
        "آخرین بار شما برداشتید، پس {count} کارت مانده روی زمین مال شماست.",
    ),
    "lesson_last_sweep_other": (
        "Your opponent took last, so the {count} cards left on the table are theirs.",
        "آخرین بار حریف برداشت، پس {count} کارت مانده روی زمین مال اوست.",
    ),
    "lesson_scoring": (
        "The round is scored: 7 clubs or more (Haft Khaj) 7 points, the 2♣ 2, the 10♦ 3, each Ace and"
        " Jack 1, each Sur 5 less the other side's. You took {clubs} clubs and scored {points}; your"
        " opponent {other_clubs} clubs and {other_points}.",
        "امتیاز دست: ۷ خاج یا بیشتر (هفت خاج) ۷ امتیاز، ۲♣ دو، ۱۰♦ سه، هر تک و سرباز یک، و هر سور ۵"
        " منهای سورهای طرف دیگر. شما {clubs} خاج برداشتید و {points} امتیاز گرفتید؛ حریف {other_clubs}"
        " خاج و {other_points} امتیاز.",
    ),
    "lesson_play_on": (
        "Those are all the rules. Play on: the match goes on, round after round, until a side has"
        " {target} points. No more tips from here.",
        "همه قانون‌ها همین بود. بازی را ادامه دهید: دست‌ها پشت هم بازی می‌شوند تا طرفی به {target} امتیاز"
        " برسد. از اینجا راهنمایی دیگری نیست.",
    ),
}


#: Why something is refused, in Persian, where the English is the refusal's own message: an illegal
#: move or a bad deck (`pasur.core.Refusal`, which stands on the standard library alone) and a
#: bot's fault (`pasur.bots.BotError.reason`). The server's refusals are `REFUSALS`.
PERSIAN_REASONS: dict[str, str] = {
    "round_over": "این دست تمام شده است",
    "unreadable": "«{text}» خوانده نشد؛ کارت را مانند 7C و برداشت را مانند 7Cx4H بنویسید",
    "not_legal": "«{text}» اینجا حرکت مجازی نیست",
    "not_in_hand": "{card} در دست شما نیست",
    "say_which": "{card} چند برداشت دارد ({options}): بگویید کدام",
    "named_twice": "{card}: یک کارت دو بار نام برده شده است",
    "must_capture": "{card} باید بردارد: {options}",
    "not_on_table": "{cards} روی زمین نیست",
    "only_lay_down": "{card} نمی‌تواند {take} را بردارد: فقط می‌شود آن را زمین گذاشت",
    "cannot_take": "{card} نمی‌تواند {take} را بردارد؛ می‌تواند این‌ها را بردارد: {options}",
    "no_such_move": "حرکت شماره {number} وجود ندارد",
    "open_only": "این ربات همهٔ کارت‌ها را می‌بیند، پس فقط pasur match آن را می‌نشاند",
    # a bot's faults (pasur.bots.BotError)
    "bot_not_started": "اجرا نشد: {error}",
    "bot_no_hello": "به جای hello پاسخ دیگری داد",
    "bot_wrong_answer": "پاسخی با شناسه این حرکت نداد",
    "bot_no_move_text": "پاسخش متن حرکت ندارد",
    "bot_illegal_move": "حرکت {move} اینجا مجاز نیست",
    "bot_input_closed": "ورودی‌اش بسته است",
    "bot_timeout": "در {seconds} ثانیه پاسخ نداد",
    "bot_stopped": "بی‌پاسخ بسته شد",
    "bot_not_json": "پاسخش JSON نیست",
    "bot_not_object": "پاسخش یک شیء JSON نیست",
    "bot_answer_too_long": "پاسخش از {characters} نویسه بلندتر است",
    "bot_crashed": "از کار افتاد: {error}",
}


#: Every refusal of the server, by its reason (`pasur.server.errors.TableError` names only
#: the reason and what it names): the English and the Persian, each a template of the details.
REFUSALS: dict[str, tuple[str, str]] = {
    "already_started": ("the match has already started", "بازی شروع شده است"),
    "bad_csrf": (
        "this request lacks its session's token: open the page again",
        "این درخواست نشانه نشست را همراه ندارد: صفحه را دوباره باز کنید",
    ),
    "bad_cursor": (
        "that page of the lobby does not exist: start from the first",
        "این صفحه از فهرست میزها وجود ندارد: از صفحه اول شروع کنید",
    ),
    "bad_device_seats": (
        "the seats do not fit the match, or the seat named as yours is a bot's",
        "جاها با بازی جور نیست، یا جایی که جای شما گفته شده جای ربات است",
    ),
    "bad_host": ("this server does not answer for that host name", "این کارگزار به این نام پاسخ نمی‌دهد"),
    "bad_level": ("unknown level '{level}' (levels: {known})", "«{level}» سطح شناخته‌شده‌ای نیست (سطح‌ها: {known})"),
    "bad_log_in": ("that name and password do not match an account", "این نام و گذرواژه با حسابی جور نیست"),
    "bad_origin": ("connections from that page are not accepted", "اتصال از آن صفحه پذیرفته نمی‌شود"),
    "bad_period": ("period: say all or week", "دوره یکی از all یا week است"),
    "bad_table_kind": (
        "table: say 2, 3, 4 (partners) or 4-each (no partners)",
        "میز: 2، 3، 4 (دوبه‌دو) یا 4-each (بی‌یار)",
    ),
    "bad_record": ("the match's record does not hold: {problem}", "پرونده بازی درست نیست: {problem}"),
    "bad_rules": ("rules: {problem}", "قوانین درست نیست: {problem}"),
    "bad_timer": (
        "timer: choose one of {choices} seconds (0: none)",
        "زمان نوبت یکی از این‌ها باشد: {choices} ثانیه (۰: بی‌زمان)",
    ),
    "bad_token": ("that seat token is not valid here", "نشانه جای شما در این میز معتبر نیست"),
    "between_rounds": (
        "the round is over: say when you are ready for the next deal",
        "این دست تمام شده است: هر وقت آماده پخش بعدی بودید بگویید",
    ),
    "block_self": ("you cannot block yourself", "نمی‌توانید خودتان را مسدود کنید"),
    "busy_signing_in": (
        "the server is busy signing people in: try again in a moment",
        "کارساز سرگرم ورود دیگران است: کمی بعد دوباره امتحان کنید",
    ),
    "changed_elsewhere": ("the table changed meanwhile: try again", "میز در همین میان تغییر کرد: دوباره امتحان کنید"),
    "chat_control": (
        "a chat line may not hold control, invisible or text-direction characters",
        "پیام نباید نویسه کنترلی، نامرئی یا تغییر جهت متن داشته باشد",
    ),
    "chat_empty": ("say one thing: a text or a quick phrase", "یک چیز بگویید: متنی یا جمله‌ای آماده"),
    "chat_phrase": ("no quick phrase '{key}' (phrases: {phrases})", "«{key}» جمله آماده‌ای نیست (جمله‌ها: {phrases})"),
    "chat_too_fast": ("you are writing too fast: wait a few seconds", "تند می‌نویسید: چند ثانیه صبر کنید"),
    "chat_too_long": ("a chat line has at most {limit} characters", "پیام حداکثر {limit} نویسه دارد"),
    "device_game_added": ("this match is in your history already", "این بازی از پیش در تاریخچه شما هست"),
    "device_game_not_dealt": (
        "the record's cards are not the ones its shuffle deals",
        "کارت‌های این پرونده همان‌هایی نیست که بُر زدنش پخش می‌کند",
    ),
    "device_game_unfinished": (
        "only a match played to its end can be added",
        "فقط بازی‌ای که تا پایان بازی شده افزوده می‌شود",
    ),
    "headers_too_large": (
        "the request headers may take at most {bytes:,} bytes",
        "سرآیندهای درخواست حداکثر {bytes} بایت می‌توانند داشته باشند",
    ),
    "hint_forced": ("only one move is legal: there is nothing to advise", "تنها یک حرکت مجاز است: راهنمایی لازم نیست"),
    "hint_stale": ("the table moved on before the hint was ready", "میز پیش از آماده شدن راهنمایی جلو رفت"),
    "host_only": ("only the host can start the match", "فقط میزبان می‌تواند بازی را شروع کند"),
    "id_reused": (
        "move id {client} was used for another move",
        "شناسه حرکت {client} پیش‌تر برای حرکت دیگری به کار رفته است",
    ),
    "invite_blocked": ("{name} does not take invitations from you", "{name} از شما دعوت نمی‌پذیرد"),
    "invite_self": ("you are at this table already", "شما خودتان سر این میز هستید"),
    "match_not_over": ("the match is not over yet", "بازی هنوز تمام نشده است"),
    "match_over": ("the match is over", "بازی تمام شده است"),
    "name_control": (
        "a name may not hold control, invisible or text-direction characters",
        "نام نباید نویسه کنترلی، نامرئی یا تغییر جهت متن داشته باشد",
    ),
    "name_empty": ("say a name with at least one visible character", "نامی بگویید که دست‌کم یک نویسه دیدنی داشته باشد"),
    "name_reserved": ("that name is a bot's: choose another", "این نام یک ربات است: نام دیگری برگزینید"),
    "name_taken": (
        "that name is taken (or one that looks like it): choose another",
        "این نام (یا نامی که شبیه آن است) گرفته شده است: نام دیگری برگزینید",
    ),
    "name_taken_here": ("someone at this table already goes by that name", "کسی سر این میز همین نام را دارد"),
    "name_too_long": ("a name may have at most {limit} characters", "نام حداکثر {limit} نویسه دارد"),
    "no_hello": ("say hello first: {example}", "پیام نخست باید hello باشد: {example}"),
    "no_hints": ("this table gives no hints", "این میز راهنما نمی‌دهد"),
    "no_person_there": ("seat {seat} holds no person", "در جای {seat} کسی ننشسته است"),
    "no_seat": ("you have no seat at this table", "شما در این میز جایی ندارید"),
    "no_seat_free": ("no seat is free: every seat is taken, or the match has started", "جای خالی‌ای نمانده است"),
    "no_such_difficulty": (
        "no difficulty called '{difficulty}': easy, medium or hard",
        "سختی «{difficulty}» نیست: آسان، متوسط یا سخت",
    ),
    "no_such_player": ("no player is called '{name}'", "بازیکنی به نام «{name}» نیست"),
    "no_such_puzzle": ("no such puzzle here", "چنین معمایی اینجا نیست"),
    "no_such_table": ("there is no such table", "چنین میزی وجود ندارد"),
    "not_finished": ("the record is available once the match is over", "پرونده بازی پس از پایان آن آماده می‌شود"),
    "not_seated": ("take a seat at this table first", "نخست جایی بگیرید"),
    "not_signed_in": ("sign in to your account first", "نخست وارد حساب خود شوید"),
    "not_under_way": ("the match is not under way", "بازی در جریان نیست"),
    "not_understood": ("not understood: {problem}", "پیام فهمیده نشد"),
    "not_your_turn": ("it is {name}'s turn", "نوبت {name} است"),
    "only_host_frees": ("only the host can free a seat", "فقط میزبان می‌تواند جایی را آزاد کند"),
    "own_seat": ("the host's own seat cannot be freed", "جای خود میزبان آزاد نمی‌شود"),
    "password_common": (
        "that password is among the commonest ones: choose another",
        "این گذرواژه از رایج‌ترین‌هاست: گذرواژه دیگری برگزینید",
    ),
    "password_has_name": ("a password may not hold the account's name", "گذرواژه نباید نام حساب را در خود داشته باشد"),
    "password_long": ("a password has at most {limit} characters", "گذرواژه حداکثر {limit} نویسه دارد"),
    "password_short": ("a password has at least {limit} characters", "گذرواژه دست‌کم {limit} نویسه دارد"),
    "player_here": ("the player in seat {seat} is here", "بازیکن جای {seat} اینجاست"),
    "rated_needs_account": ("sign in to play rated matches", "برای بازی رتبه‌دار وارد حساب خود شوید"),
    "rated_rules": (
        "a rated match has the standard rules, for two players, three, or four",
        "بازی رتبه‌دار با قوانین استاندارد است، دونفره، سه‌نفره یا چهارنفره",
    ),
    "rated_same_network": (
        "two players from one network cannot play a rated match together: make it a casual table",
        "دو بازیکن از یک شبکه نمی‌توانند بازی رتبه‌دار با هم کنند: میز را دوستانه کنید",
    ),
    "rated_seat": (
        "at a rated table the turn timer plays for a player away",
        "در میز رتبه‌دار زمان‌سنج به جای بازیکن غایب بازی می‌کند",
    ),
    "rated_timer": ("a rated match needs a turn timer", "بازی رتبه‌دار زمان‌سنج نوبت می‌خواهد"),
    "resign_sides": (
        "a match of more than two sides cannot be resigned: leave the table instead",
        "بازی بیش از دو طرف را نمی‌شود واگذار کرد: میز را ترک کنید",
    ),
    "seat_not_free": ("seat {seat} is not free", "جای {seat} خالی نیست"),
    "seats_count": (
        "seats: say who sits in each of the other {count} seats",
        "بگویید در هر یک از {count} جای دیگر چه کسی می‌نشیند",
    ),
    "stale_version": (
        "that move was made against an older version of the table: choose again",
        "میز پیش از این حرکت عوض شد؛ دوباره انتخاب کنید",
    ),
    "storage_unavailable": (
        "the game's storage is not answering: try again in a moment",
        "پایگاه داده بازی پاسخ نمی‌دهد: کمی بعد دوباره امتحان کنید",
    ),
    "table_refused": ("this table cannot be played on this server", "این میز روی این کارگزار بازی نمی‌شود"),
    "too_large": ("a request may carry at most {bytes:,} bytes", "درخواست حداکثر {bytes} بایت می‌تواند داشته باشد"),
    "too_many_blocked": ("you may block at most {limit} players", "حداکثر {limit} بازیکن را می‌توانید مسدود کنید"),
    "too_many_connections": ("too many connections from this address", "از این نشانی اتصال‌های باز بیش از اندازه‌اند"),
    "too_many_device_adds": (
        "too many matches added from this address: wait a minute",
        "از این نشانی بازی‌های زیادی افزوده شده است: یک دقیقه صبر کنید",
    ),
    "too_many_device_games": (
        "at most {count} matches from a device a day",
        "در روز حداکثر {count} بازی از دستگاه افزوده می‌شود",
    ),
    "too_many_invitations": (
        "a table may invite at most {limit} players",
        "هر میز حداکثر {limit} بازیکن را دعوت می‌کند",
    ),
    "too_many_joins": (
        "too many seats taken from this address: wait a minute",
        "از این نشانی جاهای زیادی گرفته شده است: یک دقیقه صبر کنید",
    ),
    "too_many_log_ins": (
        "too many log-ins: wait a quarter of an hour",
        "ورود بیش از اندازه امتحان شده است: یک ربع صبر کنید",
    ),
    "too_many_messages": ("too many messages: slow down", "پیام‌ها بیش از اندازه‌اند: آهسته‌تر"),
    "too_many_reviews": (
        "at most {limit} reviews at once from one address: wait for one to end",
        "از یک نشانی بیش از {limit} بازبینی با هم نمی‌شود: صبر کنید یکی تمام شود",
    ),
    "too_many_sign_ups": (
        "at most {limit} accounts a day from one address",
        "از یک نشانی در روز حداکثر {limit} حساب ساخته می‌شود",
    ),
    "too_many_spectators": (
        "this table has its {limit} spectators already",
        "این میز {limit} تماشاگر دارد و جای بیشتری ندارد",
    ),
    "too_many_tables": (
        "too many new tables from this address: wait a minute",
        "از این نشانی میزهای زیادی ساخته شده است: یک دقیقه صبر کنید",
    ),
    "too_much_advice": (
        "too many hints and analyses asked for here: try again in a moment",
        "راهنمایی‌ها و تحلیل‌های زیادی در انتظارند: کمی بعد دوباره امتحان کنید",
    ),
    "too_slow": ("the request did not arrive within {seconds:g} s", "درخواست در {seconds} ثانیه نرسید"),
    "wrong_password": ("that is not this account's password", "این گذرواژه این حساب نیست"),
}


def refusal(error: Exception, lang: str = "en") -> str:
    """Why something was refused, in ``lang``: the error's message, or its words in ``lang`` when
    the error names a reason the catalogues hold (see `pasur.core.Refusal`)."""
    reason = getattr(error, "reason", "")
    if lang == "en" or (reason not in PERSIAN_REASONS and reason not in REFUSALS):
        return str(error)
    words = refusal_words(reason, lang, getattr(error, "details", {}))
    stderr = getattr(error, "stderr", "")  # a bot program's last lines on standard error, as it wrote them
    return f"{words}\n{text('bot_stderr', lang)}\n{stderr}" if stderr else words


def refusal_words(reason: str, lang: str, details: dict[str, Any]) -> str:
    """The words of the refusal ``reason`` in ``lang``, its details filled in (capture options as
    "or"-lists, numbers in the language's digits)."""
    if lang == "en":
        return REFUSALS[reason][0].format(**details)
    template = PERSIAN_REASONS.get(reason) or REFUSALS[reason][1]
    shown = {
        name: " یا ".join(take or "زمین گذاشتن" for take in value) if isinstance(value, list) else value
        for name, value in details.items()
    }
    return _fill(template, shown)


def bot_persona(index: int, lang: str = "en") -> str:
    """The ``index``-th bot persona (from 0): "Shirin", "Bahram", "Laleh", then "Shirin 2"…"""
    personas = BOT_PERSONAS[lang]
    return personas[index % len(personas)] + ("" if index < len(personas) else f" {index // len(personas) + 1}")


def bot_name(index: int, level: str, lang: str = "en") -> str:
    """The name of the ``index``-th bot at a table (from 0) playing ``level``: "Shirin (medium)"."""
    shown = PERSIAN_LEVELS.get(level, level) if lang == "fa" else level
    return text("bot_name", lang, name=bot_persona(index, lang), level=shown)


def rules_help(lang: str = "en", keys: str = "keys_full_screen") -> str:
    """The rules in brief and the game's keys (``keys``: a catalog key), as ``?`` shows them."""
    title, lines = RULES_SUMMARY[lang]
    return "\n".join([title, "", *(f"• {line}" for line in lines), "", text(keys, lang)])


def number_text(value: float, lang: str = "en") -> str:
    """A number as ``lang`` writes it: Persian digits in Persian."""
    return _persian_number(value) if lang == "fa" else str(value)


def card_words(card: str, lang: str = "en") -> str:
    """A card (its record text, ``10C``) as people read it: ``10♣``, in Persian ``۱۰♣``."""
    rank, suit = card[:-1].upper(), _SUIT_SYMBOLS[card[-1].upper()]
    return (rank.translate(_PERSIAN_DIGITS) if lang == "fa" else rank) + suit


def cards_words(cards: Sequence[str], lang: str = "en", isolate: bool = False, joiner: str = "+") -> str:
    """Cards joined by ``joiner`` (``A♠+3♣``); ``isolate`` keeps them left to right inside Persian
    text on a page (Unicode isolates; a terminal leaves them out)."""
    shown = joiner.join(card_words(card, lang) for card in cards)
    return isolated(shown, lang) if isolate else shown


def move_words(card: str, take: Sequence[str], lang: str = "en", isolate: bool = False) -> str:
    """A move as people read it, always naming what it takes: ``10♣ × A♠``, ``lay 7♦``."""
    if take:
        return f"{cards_words([card], lang, isolate)} × {cards_words(take, lang, isolate)}"
    return text("lay_card", lang, card=cards_words([card], lang, isolate))


def typed_move(typed: str) -> str:
    """A move typed as the game prints it, in either language (``lay 7♦``, ``10♣ × A♠+3♣``,
    Persian digits), in the short text the core reads (``7♦-``, ``10♣xA♠+3♣``); anything else is
    left as typed, for the core to say what is wrong with it."""
    shown = typed.strip().translate(_LATIN_DIGITS)
    for english, persian in (CATALOG["lay_card"],):
        for template in (english, persian):
            word = template.split("{card}")[0].strip()
            if shown.casefold().startswith(word.casefold() + " "):
                return shown[len(word) :].strip() + "-"
    return shown.replace(" × ", "x").replace("×", "x") if "×" in shown else shown


def text(key: str, lang: str = "en", **values: Any) -> str:
    """A message in ``lang`` ("en" or "fa") with ``values`` filled in; Persian gets Persian digits.
    A ``count`` of 1 takes the key's singular form (``KEY_one``) where it has one ("1 card")."""
    if values.get("count") == 1 and f"{key}_one" in CATALOG:
        key = f"{key}_one"
    english, persian = CATALOG[key]
    return _fill(persian, values) if lang == "fa" else english.format(**values)


def _fill(persian: str, values: dict[str, Any]) -> str:
    """A Persian template filled in, numbers in Persian digits."""
    shown = {
        name: _persian_number(value) if isinstance(value, int | float) else value for name, value in values.items()
    }
    return persian.format(**shown)


def _persian_number(value: float) -> str:
    """A number in Persian digits, with the Persian decimal separator and a true minus sign, a
    left-to-right mark before it so that right-to-left text shows it on the number's left (as
    Unicode's locale data writes Persian numbers; without the mark it lands on the right)."""
    shown = str(value) if isinstance(value, int) else f"{value:g}".replace(".", "٫")
    return shown.replace("-", "\u200e−").translate(_PERSIAN_DIGITS)  # the minus sign, not a hyphen
