"""The coach: what pasur says about play, in every language of the page, over the bots' numbers —
each move of a finished match judged and explained (`analysis`, `reasons`), a hint
on the player's turn (`hint`), the first-game lesson (`lesson`) and puzzles found in
real play (`puzzles`)."""
