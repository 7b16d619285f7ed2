// The page's words in English and Persian, and how numbers, cards and names are written in them.

export const I18N = {
  en: {
    title: "Pasur", lobby_title: "Play Pasur", your_name: "Your name", players: "Players",
    partnership: "Partners sit opposite (seats 1+3 against 2+4)", other_seats: "The other seats",
    play_to: "Play to", timer: "Turn timer", timer_off: "off", sur_cancel: "Surs cancel tit for tat",
    create: "Create the table", waiting_title: "Waiting for players", invite: "Invite friends with this link:",
    copy: "Copy", join: "Take a seat", start: "Start the match", log: "Moves", download: "Download the record",
    unreachable: "The server cannot be reached right now: trying again…",
    settings: "Settings", sound: "Sounds", hand_order: "Hand order", order_dealt: "as dealt", order_suit: "by suit",
    order_rank: "by rank", four_colour: "Four-colour deck", large_cards: "Large cards",
    move_sent: "Your move is on its way…", team_of: "side {n}, with {partner}", team_pile: "the side's pile is with {name}", away: "away", abandoned: "This match was left unfinished: nobody played for a day", free_seat: "Free this seat", bot_plays: "Let a bot play", cards_taken: "Cards", clubs_taken: "Clubs", surs_made: "Surs made",
    replay: "Replay", continue_button: "Continue", friend: "a friend (invite)", seat: "Seat {n}", open_seat: "open seat",
    bot: "bot: {level}", bot_rated: "bot: {level}, rated {rating}", you_mark: "you", you_name: "You", your_turn: "Your turn: tap a card", your_turn_click: "Your turn: click a card", waiting_for: "{name} to play",
    choose_take: "Tap the table cards to take, or choose:", lay_down: "lay it down", takes: "take {cards}",
    surs: "Surs {count}", club_mark: "♣ {n}", pack: "pack {count}", round: "Round {number}", deal: "deal {number} of {deals}",
    round_over: "Round {number} is over", side: "Side", points: "Points", haft_khaj: "Haft Khaj",
    two_of_clubs: "2♣", ten_of_diamonds: "10♦", aces: "Aces", jacks: "Jacks (Sarbaz)", sur_points: "Surs",
    match_score: "Match score", winner_line: "{name} wins the match, {scores}", winners: "{name} win the match, {scores}",
    winner_you: "You win the match, {scores}", winner_you_and: "You and {name} win the match, {scores}", and: " and ", list_join: ", ", spectating: "You are watching",
    connected: "connected", reconnecting: "reconnecting…", seconds_left: "{n} s left", to: "to {n}",
    on_this_device: "on this device", offline_title: "Play on this device", offline_note: "No network needed: the bots play in your browser, and the match is kept on this device.",
    offline_play: "Play the computer offline", offline_resume: "Resume the match on this device", bot_level: "Bot level",
    offline_outdated: "This device has only part of an update to play on this device: open Pasur once with the network on, then play on (your match is kept).",
    add_to_account: "Add to my matches (unrated)", in_your_history: "In my matches", add_needs_network: "Needs the network: try again online",
    on_a_device: "on a device", no_recovery: "Pasur keeps no e-mail address, so a forgotten password cannot be reset: keep it in a password manager. Signed in, you can change it from this dialog.", unrated_tag: "unrated", sur_no_cancel: "every Sur counts", quick_game_as: "Play now: {n} players, against {levels}", move_not_sent: "Not connected: that move was not sent. Play it again once reconnected.", more_actions: "More: the bots' pace, resign",
    friends_here: "friends on this device (pass and play)", offline_history: "Matches on this device", player_n: "Player {n}", pass_device: "Pass the device to {name}, then tap to show their cards",
    laid: "{name}: lay {card}", took: "{name}: {card} × {cards}", sur: "Sur!", move_of: "move {i} of {n}",
    puzzles: "Puzzles", daily: "Today's puzzle", difficulty_easy: "easy", difficulty_medium: "medium", difficulty_hard: "hard",
    next_puzzle: "Next puzzle", puzzle_of_the_day: "The puzzle of {date}", puzzle_n: "Puzzle {n} of {count}",
    puzzle_task: "Deal {deal} of 6, your turn: one move is best by {points} points or more. Tap it.",
    puzzle_task_twins: "Deal {deal} of 6, your turn: two twin moves are best by {points} points or more. Tap one.",
    puzzle_scores: "scores: you {mine}, the other side {theirs}", puzzle_unseen: "not yet seen: {cards}",
    puzzle_standing: "Your puzzle rating: {rating} · streak: {streak} right in a row", puzzle_rated: "Puzzle rating {change}",
    best_line_shown: "The best line, every card known:", line_by_you: "you", line_by_them: "they", line_join: "; ",
    puzzles_offline: "No network: these are the puzzles kept on this device (why a move is best, and your rating, come back online).",
    line_play: "Play the best line on the felt", line_next: "Next move", line_again: "Back to the puzzle", line_move: "Move {n} of {count}:",
    puzzle_taken: "you have taken {mine} cards ({clubs} clubs), the other side {theirs} ({their_clubs} clubs)", puzzle_other: "the other player holds {n}, the pack {pack}",
    puzzle_best: "Right, the best move", puzzle_not_best: "Not the best", or: " or ",
    exact_last_deal: "Exact: in the last deal every card is known, and each move was solved to the round's end.",
    exact_arrangements: "Best on average: each move was solved with open cards on every one of the {n} ways the unseen cards may lie, and averaged; not knowing them, a player may do worse.",
    lay_card: "lay {card}", move_n: "move {n}", before_move: "before move {n}", played: "played", best: "best", review: "Review",
    accuracy: "accuracy", accuracy_explained: "Accuracy: 100 when every move was the best; each 0.35 points lost a move on average halves it (0.1 a move gives 82, 1 point gives 14).",
    review_counts: "a mean loss of {loss} points a move · mistakes {mistakes} · inaccuracies {inaccuracies} · between two verdicts {between} · unclear {unclear}",
    key_moments: "Key moments", no_key_moments: "No move lost a clear 0.3 points: nothing to look at again.",
    loses: "loses {n}", review_first: "Review the key moments", previous_moment: "Previous key moment", next_moment: "Next key moment",
    verdict_good: "good", verdict_inaccuracy: "inaccuracy", verdict_mistake: "mistake", verdict_unclear: "unclear",
    verdict_good_or_inaccuracy: "at most an inaccuracy", verdict_inaccuracy_or_mistake: "an inaccuracy or a mistake", verdict_forced: "forced",
    cards_left: "{n} cards", cards_left_one: "1 card", levels: "beginner,easy,medium,hard,master,grandmaster",
    quick_game: "Quick game against a bot", learn: "Learn to play", rules_examples: "What a card takes: examples", learn_note: "New to Pasur? Learn to play is a first game with tips, against a gentle bot.",
    coach_close: "Got it", coach_off: "No more tips", public: "List it in the lobby for anyone to join",
    open_tables: "Open tables", no_tables: "No open tables right now: create one.",
    live_tables: "Games to watch", live_entry: "round {round} · {scores} · to {target}", watch: "Watch",
    table_entry: "{players} players · to {target} · {free} free", bots_in: "bots: {levels}", join_table: "Join",
    player_name: "Player", seconds_opt: "{n} s", rules: "Rules", close: "Close", partner: "partner",
    waiting_continue: "Waiting for {names} to continue", swept: "What is left goes to {name}: {cards}",
    sur_by: "Sur! {name}", connection_lost: "Connection lost: reconnecting…", fast: "Faster bots", seat_short: "seat {n}",
    judging: "Judging the moves… {done} of {total}",
    hint_button: "Hint", hint_line: "Hint: {reason}", hint_why: "Why: {why}", allow_hints: "Players may ask the strongest bot for a hint",
    chat: "Chat", chat_players: "Table chat (players)", chat_spectators: "Spectators' chat", say: "Send",
    chat_placeholder: "Say something…", mute_chat: "Mute chat", mute: "Mute", unmute: "Unmute", phrase: "Quick phrase…",
    spectator: "spectator", hello: "Hello!", good_luck: "Good luck!", well_played: "Well played!", nice_sur: "Nice Sur!",
    oops: "Oops!", thanks: "Thanks!", good_game: "Good game!", last_round: "The last round",
    replay_round: "Round", replay_start: "Start of the round", replay_end: "End of the round", replay_close: "Back to the result",
    sign_in: "Sign in", sign_up: "Create an account", account: "Account", account_name: "Name", password: "Password",
    account_why: "An account keeps your name for you. Playing needs none.", log_out: "Log out",
    log_out_everywhere: "Log out everywhere", account_data: "Download my data", change_password: "Change the password",
    old_password: "Current password", new_password: "New password", save: "Save", delete_account: "Delete the account",
    delete_note: "Your games stay, without your name.", my_games: "My matches", profile_games: "Matches",
    profile_none: "No finished matches yet.", profile_summary: "{games} matches, {wins} won", profile_summary_one: "1 match, {wins} won", won: "won", lost: "lost",
    against: "against {names}", password_changed: "The password is changed; other browsers are signed out.", watching: "{n} watching",
    nobody_took: "no one",
    theme: "Theme", theme_system: "as the system", theme_light: "light", theme_dark: "dark",
    motion: "Card motion", motion_normal: "normal", motion_fast: "fast", motion_off: "off",
    confirm_play: "Confirm before playing (tap a card, then its move)", your_turn_confirm: "Your turn: tap a card, then its move", your_turn_confirm_click: "Your turn: click a card, then its move",
    confirm_move: "Play it:", table_cards: "the table", your_hand: "your hand", previous_move: "previous move",
    next_move: "next move", move: "move", sit_here: "Sit here", rematch: "Rematch", rematch_join: "Go to the rematch",
    rematch_ready: "The rematch is ready: the seats turn by one, so the next player opens.", new_match: "New match",
    rated_match: "Rated: changes ratings (standard rules, a turn timer, no hints)", rated_sign_in: "Sign in to play rated matches.",
    rated_tag: "rated", resign: "Resign", resign_confirm: "Resign the match? Your side loses it.", resign_yes: "Resign",
    keep_playing: "Keep playing", resigned_you: "You resigned", resigned_by: "{name} resigned", abandoned_by: "{name} left the match",
    rating_change: "Your rating: {before} → {after}", rating: "Rating", rating_2: "2 players", rating_3: "3 players", rating_4: "4 players, partners", "rating_4-each": "4 players, no partners",
    rating_games: "{n} rated matches", rating_games_one: "1 rated match", resigned_short: "resigned", abandoned_short: "left", points_per_round: "Points a round",
    aborted: "Match aborted", aborted_why: "It ended before each player had made two moves, so it counts for nobody and changes no rating.", aborted_short: "aborted", deleted_player: "a deleted player",
    surs_per_round: "Surs a round", haft_khaj_rate: "Rounds with Haft Khaj",
    profile_accuracy: "Accuracy in reviewed rated matches", accuracy_of: "{n} of 100 ({matches} matches)",
    profile_mean_loss: "Points lost a move (reviewed)", rating_graph: "Rating over time",
    leaders: "Leaderboard", all_time: "All time", this_week: "This week", last_week: "Last week's podium",
    bots_apart: "The bots, on the same scale", no_leaders: "No rated matches here yet.", games_n: "{n} matches",
    games_n_one: "1 match", wins_n: "{n} won", gained: "Gained", matches_col: "Matches", wins_col: "Won", week_note: "Rated matches since Monday, 00:00 UTC, ranked by rating gained, settled ratings first.",
    fair_note: "What counts: a match ended before each player's second move is aborted and rated for nobody; two players are rated against each other at most 3 times a day; two accounts from one network never play a rated match together; a win over bots you were each more than 90% sure to beat changes no rating.",
    all_note: "Settled ratings first; a “?” marks a rating still provisional.", provisional: "provisional",
    invitations: "Invitations", invited_by: "{name} invites you", players_n: "{n} players", decline: "Decline",
    invite_player: "Invite a player by name", invite_button: "Invite", invited: "{name} is invited: it shows in their lobby.",
    block: "Block", unblock: "Unblock", record_short: "Record",
  },
  fa: {
    title: "پاسور", lobby_title: "پاسور بازی کنید", your_name: "نام شما", players: "بازیکن‌ها",
    partnership: "یارها روبه‌روی هم (جای ۱+۳ در برابر ۲+۴)", other_seats: "جای‌های دیگر",
    play_to: "بازی تا", timer: "زمان هر نوبت", timer_off: "خاموش", sur_cancel: "سورها هم را خنثی می‌کنند",
    create: "ساختن میز", waiting_title: "در انتظار بازیکن‌ها", invite: "دوستان را با این پیوند دعوت کنید:",
    copy: "رونوشت", join: "نشستن", start: "شروع بازی", log: "حرکت‌ها", download: "بارگیری پرونده بازی",
    unreachable: "اکنون به کارگزار دسترسی نیست: دوباره امتحان می‌شود…",
    settings: "تنظیمات", sound: "صداها", hand_order: "ترتیب دست", order_dealt: "به ترتیب پخش", order_suit: "بر پایهٔ خال",
    order_rank: "بر پایهٔ ارزش", four_colour: "دستهٔ چهاررنگ", large_cards: "کارت‌های بزرگ",
    move_sent: "حرکت شما در راه است…", team_of: "طرف {n}، با {partner}", team_pile: "برداشت‌های این طرف نزد {name}", away: "غایب", abandoned: "این بازی نیمه‌کاره ماند: یک روز کسی بازی نکرد", free_seat: "آزاد کردن این جا", bot_plays: "بازی را به ربات بسپار", cards_taken: "کارت‌ها", clubs_taken: "خاج‌ها", surs_made: "سورهای زده",
    replay: "بازپخش", continue_button: "ادامه", friend: "یک دوست (دعوت)", seat: "جای {n}", open_seat: "جای خالی",
    bot: "ربات: {level}", bot_rated: "ربات: {level}، امتیاز {rating}", you_mark: "شما", you_name: "شما", your_turn: "نوبت شماست: یک کارت بزنید", your_turn_click: "نوبت شماست: روی یک کارت کلیک کنید", waiting_for: "نوبت {name}",
    choose_take: "کارت‌های زمین را برای برداشتن بزنید، یا انتخاب کنید:", lay_down: "زمین بگذار",
    takes: "برداشتن {cards}", surs: "سور {count}", club_mark: "خاج {n}", pack: "دسته {count}", round: "دست {number}",
    deal: "پخش {number} از {deals}", round_over: "دست {number} تمام شد", side: "طرف", points: "امتیاز", haft_khaj: "هفت خاج",
    two_of_clubs: "دو خاج", ten_of_diamonds: "ده خشت", aces: "تک‌ها", jacks: "سربازها", sur_points: "سورها",
    match_score: "امتیاز بازی", winner_line: "{name} بازی را برد، {scores}", winners: "{name} بازی را بردند، {scores}",
    winner_you: "شما بازی را بردید، {scores}", winner_you_and: "شما و {name} بازی را بردید، {scores}", and: " و ", list_join: "، ", spectating: "شما تماشاگرید",
    connected: "وصل", reconnecting: "در حال وصل شدن…", seconds_left: "{n} ثانیه مانده", to: "تا {n}",
    on_this_device: "روی همین دستگاه", offline_title: "بازی روی همین دستگاه", offline_note: "بی‌نیاز از اینترنت: ربات‌ها در مرورگر شما بازی می‌کنند و بازی روی همین دستگاه نگه داشته می‌شود.",
    offline_play: "بازی آفلاین با کامپیوتر", offline_resume: "ادامهٔ بازی روی این دستگاه", bot_level: "سطح ربات",
    offline_outdated: "این دستگاه فقط بخشی از به‌روزرسانی بازی روی دستگاه را دارد: یک بار پاسور را با اینترنت باز کنید و بعد ادامه دهید (بازی شما نگه داشته شده است).",
    add_to_account: "افزودن به بازی‌های من (بی‌رتبه)", in_your_history: "در بازی‌های من", add_needs_network: "به اینترنت نیاز دارد: با اتصال دوباره امتحان کنید",
    on_a_device: "روی دستگاه", no_recovery: "پاسور نشانی ایمیلی نگه نمی‌دارد، پس گذرواژهٔ فراموش‌شده بازیابی نمی‌شود: آن را در یک گذرواژه‌نگهدار نگه دارید. پس از ورود، از همین‌جا می‌توانید آن را عوض کنید.", unrated_tag: "بی‌رتبه", sur_no_cancel: "همه سورها حساب می‌شوند", quick_game_as: "همین حالا بازی کن: {n} نفره، در برابر {levels}", move_not_sent: "اتصال برقرار نیست: این حرکت فرستاده نشد. پس از وصل شدن دوباره بازی کنید.", more_actions: "بیشتر: سرعت ربات‌ها، واگذاری",
    friends_here: "دوستان روی همین دستگاه (دست‌به‌دست)", offline_history: "بازی‌های روی این دستگاه", player_n: "بازیکن {n}", pass_device: "دستگاه را به {name} بدهید، سپس بزنید تا کارت‌هایش دیده شود",
    laid: "{name}: گذاشتن {card}", took: "{name}: {card} × {cards}", sur: "سور!", move_of: "حرکت {i} از {n}",
    puzzles: "معماها", daily: "معمای امروز", difficulty_easy: "آسان", difficulty_medium: "متوسط", difficulty_hard: "سخت",
    next_puzzle: "معمای بعدی", puzzle_of_the_day: "معمای {date}", puzzle_n: "معمای {n} از {count}",
    puzzle_task: "دست {deal} از ۶، نوبت شما: یک حرکت دست‌کم {points} امتیاز بهتر است. آن را بزنید.",
    puzzle_task_twins: "دست {deal} از ۶، نوبت شما: دو حرکتِ هم‌ارز دست‌کم {points} امتیاز بهترند. یکی را بزنید.",
    puzzle_scores: "امتیازها: شما {mine}، طرف مقابل {theirs}", puzzle_unseen: "هنوز دیده نشده: {cards}",
    puzzle_standing: "رتبه معمای شما: {rating} | پیاپی درست: {streak}", puzzle_rated: "رتبه معما {change}",
    best_line_shown: "بهترین ادامه، با همه کارت‌های معلوم:", line_by_you: "شما", line_by_them: "حریف", line_join: "؛ ",
    puzzles_offline: "بدون اینترنت: این معماها روی همین دستگاه نگه داشته شده‌اند (چرایی بهترین حرکت و رتبه شما با اتصال دوباره برمی‌گردد).",
    line_play: "بهترین ادامه را روی میز ببینید", line_next: "حرکت بعد", line_again: "بازگشت به معما", line_move: "حرکت {n} از {count}:",
    puzzle_taken: "شما {mine} کارت برداشته‌اید ({clubs} خاج)، طرف مقابل {theirs} ({their_clubs} خاج)", puzzle_other: "بازیکن دیگر {n} کارت دارد، دسته {pack}",
    puzzle_best: "درست است، بهترین حرکت", puzzle_not_best: "بهترین نیست", or: " یا ",
    exact_last_deal: "دقیق: در دست آخر همه کارت‌ها معلوم‌اند و هر حرکت تا پایان دور حل شده است.",
    exact_arrangements: "بهترین به‌طور میانگین: هر حرکت با کارت‌های باز در همه {n} چینش ممکنِ کارت‌های نادیده حل و میانگین گرفته شده است؛ بازیکنی که آن‌ها را نمی‌بیند ممکن است بدتر بازی کند.",
    lay_card: "گذاشتن {card}", move_n: "حرکت {n}", before_move: "پیش از حرکت {n}", played: "بازی‌شده", best: "بهترین", review: "بازبینی",
    accuracy: "دقت", accuracy_explained: "دقت: ۱۰۰ یعنی همه حرکت‌ها بهترین بودند؛ هر ۰٫۳۵ امتیاز از دست رفته در هر حرکت (به‌طور میانگین) آن را نصف می‌کند (۰٫۱ در هر حرکت ۸۲ می‌شود و ۱ امتیاز ۱۴).",
    review_counts: "میانگین {loss} امتیاز از دست رفته در هر حرکت | اشتباه {mistakes} | نادقیق {inaccuracies} | میان دو داوری {between} | نامعلوم {unclear}",
    key_moments: "لحظه‌های مهم", no_key_moments: "هیچ حرکتی آشکارا ۰٫۳ امتیاز از دست نداد: چیزی برای دوباره دیدن نیست.",
    loses: "{n} امتیاز از دست رفت", review_first: "دیدن لحظه‌های مهم", previous_moment: "لحظه مهم پیشین", next_moment: "لحظه مهم بعدی",
    verdict_good: "خوب", verdict_inaccuracy: "نادقیق", verdict_mistake: "اشتباه", verdict_unclear: "نامعلوم",
    verdict_good_or_inaccuracy: "حداکثر نادقیق", verdict_inaccuracy_or_mistake: "نادقیق یا اشتباه", verdict_forced: "ناگزیر",
    cards_left: "{n} کارت", levels: "beginner,easy,medium,hard,master,grandmaster",
    quick_game: "بازی سریع با ربات", learn: "یادگیری بازی", rules_examples: "نمونه‌های برداشتن", learn_note: "پاسور را تازه شروع کرده‌اید؟ «یادگیری بازی» یک بازی با راهنمایی است، در برابر رباتی آسان‌گیر.",
    coach_close: "فهمیدم", coach_off: "دیگر راهنمایی نکن", public: "در فهرست میزها بیاید تا هر کسی بنشیند",
    open_tables: "میزهای باز", no_tables: "اکنون میز بازی نیست: یکی بسازید.",
    live_tables: "بازی‌هایی برای تماشا", live_entry: "دست {round} | {scores} | تا {target}", watch: "تماشا",
    table_entry: "{players} نفره | تا {target} | {free} جای خالی", bots_in: "ربات‌ها: {levels}", join_table: "نشستن",
    player_name: "بازیکن", seconds_opt: "{n} ثانیه", rules: "قوانین", close: "بستن", partner: "یار",
    waiting_continue: "در انتظار ادامهٔ {names}", swept: "باقی زمین به {name} می‌رسد: {cards}",
    sur_by: "سور! {name}", connection_lost: "اتصال قطع شد: در حال وصل شدن دوباره…", fast: "ربات‌های تندتر", seat_short: "جای {n}",
    chat: "گفت‌وگو", chat_players: "گفت‌وگوی بازیکن‌ها", chat_spectators: "گفت‌وگوی تماشاگرها", say: "بفرست",
    chat_placeholder: "چیزی بنویسید…", mute_chat: "بی‌صدا کردن گفت‌وگو", mute: "بی‌صدا", unmute: "باصدا", phrase: "جملهٔ آماده…",
    spectator: "تماشاگر", hello: "سلام!", good_luck: "موفق باشید!", well_played: "خوب بازی کردید!", nice_sur: "سور قشنگی بود!",
    judging: "در حال سنجیدن حرکت‌ها… {done} از {total}",
    hint_button: "راهنما", hint_line: "راهنما: {reason}", hint_why: "چرا: {why}", allow_hints: "بازیکن‌ها بتوانند از قوی‌ترین ربات راهنما بخواهند",
    oops: "اوه!", thanks: "ممنون!", good_game: "بازی خوبی بود!", last_round: "دست آخر",
    replay_round: "دست", replay_start: "آغاز دست", replay_end: "پایان دست", replay_close: "بازگشت به نتیجه",
    sign_in: "ورود", sign_up: "ساختن حساب", account: "حساب", account_name: "نام", password: "گذرواژه",
    account_why: "حساب نام شما را برایتان نگه می‌دارد. بازی کردن به آن نیازی ندارد.", log_out: "خروج",
    log_out_everywhere: "خروج از همه‌جا", account_data: "بارگیری داده‌های من", change_password: "تغییر گذرواژه",
    old_password: "گذرواژه کنونی", new_password: "گذرواژه تازه", save: "ذخیره", delete_account: "پاک کردن حساب",
    delete_note: "بازی‌هایتان می‌مانند، بی‌نام شما.", my_games: "بازی‌های من", profile_games: "بازی‌ها",
    profile_none: "هنوز بازی تمام‌شده‌ای نیست.", profile_summary: "{games} بازی، {wins} برد", won: "برد", lost: "باخت",
    against: "با {names}", password_changed: "گذرواژه عوض شد؛ مرورگرهای دیگر بیرون رفتند.", watching: "{n} تماشاگر",
    nobody_took: "هیچ‌کس",
    theme: "پوسته", theme_system: "مانند سیستم", theme_light: "روشن", theme_dark: "تیره",
    motion: "جنبش کارت‌ها", motion_normal: "عادی", motion_fast: "تند", motion_off: "خاموش",
    confirm_play: "تأیید پیش از بازی (کارت را بزنید، سپس حرکتش را)", your_turn_confirm: "نوبت شماست: کارتی بزنید، سپس حرکتش را", your_turn_confirm_click: "نوبت شماست: روی کارتی کلیک کنید، سپس حرکتش را",
    confirm_move: "بازی کن:", table_cards: "زمین", your_hand: "دست شما", previous_move: "حرکت پیشین",
    next_move: "حرکت بعدی", move: "حرکت", sit_here: "اینجا بنشین", rematch: "بازی دوباره", rematch_join: "رفتن به بازی دوباره",
    rematch_ready: "بازی دوباره آماده است: جای‌ها یکی می‌چرخند تا بازیکن بعدی آغاز کند.", new_match: "بازی تازه",
    rated_match: "رتبه‌دار: رتبه‌ها را تغییر می‌دهد (قوانین استاندارد، زمان‌سنج نوبت، بی‌راهنما)", rated_sign_in: "برای بازی رتبه‌دار وارد حساب خود شوید.",
    rated_tag: "رتبه‌دار", resign: "واگذاری", resign_confirm: "بازی را واگذار می‌کنید؟ طرف شما می‌بازد.", resign_yes: "واگذار کن",
    keep_playing: "ادامه بازی", resigned_you: "شما واگذار کردید", resigned_by: "{name} واگذار کرد", abandoned_by: "{name} بازی را رها کرد",
    rating_change: "رتبه شما: {before} ← {after}", rating: "رتبه", rating_2: "دونفره", rating_3: "سه‌نفره", rating_4: "چهارنفره، دوبه‌دو", "rating_4-each": "چهارنفره، بی‌یار",
    rating_games: "{n} بازی رتبه‌دار", resigned_short: "واگذار شد", abandoned_short: "رها شد", points_per_round: "امتیاز در هر دور",
    aborted: "بازی لغو شد", aborted_why: "پیش از آن که هر بازیکن دو حرکت کند تمام شد؛ برای هیچ‌کس حساب نمی‌شود و رتبه‌ای را تغییر نمی‌دهد.", aborted_short: "لغو شد", deleted_player: "بازیکنی که حسابش را پاک کرد",
    surs_per_round: "سور در هر دور", haft_khaj_rate: "دورهای هفت‌خاج",
    profile_accuracy: "دقت در بازی‌های رتبه‌دارِ بررسی‌شده", accuracy_of: "{n} از ۱۰۰ ({matches} بازی)",
    profile_mean_loss: "امتیاز از دست رفته در هر حرکت (بررسی‌شده)", rating_graph: "رتبه در گذر زمان",
    leaders: "برترین‌ها", all_time: "همه زمان‌ها", this_week: "این هفته", last_week: "سکوی هفته گذشته",
    bots_apart: "ربات‌ها، بر همین مقیاس", no_leaders: "هنوز بازی رتبه‌داری اینجا نیست.", games_n: "{n} بازی",
    wins_n: "{n} برد", gained: "به‌دست‌آمده", matches_col: "بازی", wins_col: "برد", week_note: "بازی‌های رتبه‌دار از دوشنبه، ساعت ۰۰:۰۰ UTC، به ترتیب رتبه به‌دست‌آمده، نخست رتبه‌های پایدار.",
    fair_note: "چه حساب می‌شود: بازی‌ای که پیش از حرکت دوم هر بازیکن تمام شود لغو می‌شود و برای کسی رتبه‌دار نیست؛ دو بازیکن روزی حداکثر ۳ بار در برابر هم رتبه می‌گیرند؛ دو حساب از یک شبکه هرگز بازی رتبه‌دار با هم نمی‌کنند؛ بُردن ربات‌هایی که بیش از ۹۰٪ احتمال بُردن هر یک را داشتید رتبه‌ای را تغییر نمی‌دهد.",
    all_note: "نخست رتبه‌های پایدار؛ «؟» یعنی رتبه هنوز موقت است.", provisional: "موقت",
    invitations: "دعوت‌ها", invited_by: "{name} شما را دعوت می‌کند", players_n: "{n} نفره", decline: "نپذیرفتن",
    invite_player: "دعوت بازیکن با نام", invite_button: "دعوت", invited: "{name} دعوت شد: در صفحه آغازش می‌بیند.",
    block: "مسدود کردن", unblock: "رفع مسدودی", record_short: "پرونده",
  },
};
export const LEVEL_NAMES = {
  en: { beginner: "beginner", easy: "easy", medium: "medium", hard: "hard", master: "master", grandmaster: "grandmaster" },
  fa: { beginner: "مبتدی", easy: "آسان", medium: "متوسط", hard: "سخت", master: "استاد", grandmaster: "استاد بزرگ" },  // as pasur/i18n.py says them
};
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** The page's language: the one this browser chose last, else English. */
export let lang = localStorage.getItem("pasur-lang") === "fa" ? "fa" : "en";

export function setLanguage(chosen) {
  lang = chosen;
  localStorage.setItem("pasur-lang", lang);
}

/** Unicode's left-to-right mark. Before a number's sign in Persian text it keeps the sign on the
 *  number's left, where the browser's own Persian numbers (Intl.NumberFormat("fa")) put it; without
 *  it the sign lands on the number's right. */
const SIGN_MARK = "\u200E";

export function persianDigits(text) {
  // Persian digits, with the Persian decimal separator, percent and minus signs (as the server writes them)
  return String(text).replace(/([0-9])\.([0-9])/g, "$1٫$2").replace(/%/g, "٪").replace(/-(?=[0-9])/g, `${SIGN_MARK}−`)
    .replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);
}

/** A number as the page's language writes it. */
export function persianIf(value) {
  return lang === "fa" ? persianDigits(value) : String(value);
}

/** Digits typed in either script, as a number (NaN when it is none). */
export function readNumber(text) {
  return Number(String(text).trim().replace(/[۰-۹]/g, (d) => "۰۱۲۳۴۵۶۷۸۹".indexOf(d)));
}

export function t(key, values = {}) {
  // a word that has a singular form takes it for one ("1 card"), in the languages that have one
  const singular = values.n === 1 && I18N[lang][`${key}_one`] !== undefined ? `${key}_one` : key;
  let text = I18N[lang][singular] ?? I18N.en[key] ?? key;
  for (const [name, value] of Object.entries(values)) {
    text = text.replaceAll(`{${name}}`, lang === "fa" && typeof value === "number" ? persianDigits(value) : value);
  }
  return text;
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function cardLabel(card) {
  const rank = card.slice(0, -1);
  return (lang === "fa" ? persianDigits(rank) : rank) + SUITS[card.slice(-1)];
}

/** Card names inside plain text (a ``textContent``), joined by ``joiner``: kept left to right in
 *  Persian by Unicode isolates, as ``cardsHtml`` keeps them in HTML. */
export function cardsText(cards, joiner = "+") {
  const shown = cards.map(cardLabel).join(joiner);
  return lang === "fa" ? `\u2066${shown}\u2069` : shown;
}

/** Card names inside text: they read left to right, in Persian text too. */
export function cardsHtml(cards) {
  return `<bdi dir="ltr">${cards.map(cardLabel).join("+")}</bdi>`;
}

/** Words the server wrote, as HTML: what it kept left to right in Persian (Unicode isolates) as
 *  left-to-right islands, and the red suits inked red. */
export function isolatedHtml(words) {
  const inked = (text) => text.replace(/((?:[0-9۰-۹]{1,2}|[AJQK])[♥♦])/gu, '<span class="red-suit">$1</span>');
  return inked(escapeHtml(words)).replace(/\u2066([^\u2069]*)\u2069/gu, '<bdi dir="ltr">$1</bdi>');
}

/** A move for people, always naming what it takes: "10♣ × A♠", "lay 7♦" (``{card, take}``). */
export function moveHtml(move) {
  return move.take.length ? `${cardsHtml([move.card])} × ${cardsHtml(move.take)}` : t("lay_card", { card: cardsHtml([move.card]) });
}

/** What separates the parts of a line: a middle dot in English; in Persian a bar, since a middle
 * dot there reads as the digit zero (۰). */
export function sep() {
  return lang === "fa" ? " | " : " · ";
}

/** A rating as shown: its value, and a "?" while it is provisional (as lichess marks one). */
export function ratingText(rating) {
  return persianIf(rating.value) + (rating.provisional ? (lang === "fa" ? "؟" : "?") : "");
}

/** A change of rating, signed: "+12", "−8". */
export function signedText(change) {
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  return (lang === "fa" ? SIGN_MARK : "") + sign + persianIf(Math.abs(change));
}

/** What a refusal from the server says, in the page's language. */
export function answerError(answer) {
  if (answer.messages && answer.messages[lang]) return answer.messages[lang];
  if (typeof answer.error === "string") return answer.error;
  if (typeof answer.detail === "string") return answer.detail;
  if (Array.isArray(answer.detail)) return answer.detail.map((item) => `${item.loc.slice(-1)[0]}: ${item.msg}`).join("; ");
  return "something went wrong";
}
