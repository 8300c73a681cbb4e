# Jeu de Reines in English: the lines shown beside the board (Position::info_messages), the
# other texts being the game's own (GameInfo). The French are in fr.ftl.

reines-info-region = Region: { $region ->
    [neutral] neutral
    [animist] animist
    [cultist] cultist
   *[other] neutral or animist
} (the { $player } hold a1 and move first)
reines-info-ponte-empty = Ponte, { $player } ({ $cell }): no Worker pending
reines-info-ponte = Ponte, { $player } ({ $cell }): { $count ->
    [one] 1 Worker pending (counter { $counters }); it comes back
   *[other] { $count } Workers pending (counters { $counters }); the first comes back
} { $when ->
    [next-turn] at the start of their next turn
   *[other] right after this move, at the start of their turn
}{ $square ->
    [occupied] { " " }if { $cell } is free then (occupied now)
   *[other] { "" }
}{ $count ->
    [one] { "" }
   *[other] , the others one a turn after
}
reines-info-unmoved = Unmoved Workers (may step two): { $players }
reines-info-unmoved-of = { $player } { $count ->
    [0] none
   *[other] { $cells }
}
reines-info-quiet = Quiet plies: { $count } of { $limit }; move { $number }
reines-info-pass = The last move was a pass: another pass draws.
