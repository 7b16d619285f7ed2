"""The coach: what pasur says about play, in every language of the page, over the bots' numbers —
each move of a finished match judged and explained (:mod:`.analysis`, :mod:`.reasons`), a hint
on the player's turn (:mod:`.hint`), the first-game lesson (:mod:`.lesson`) and puzzles found in
real play (:mod:`.puzzles`)."""
