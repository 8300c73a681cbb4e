# Ackenhead chess in English: the lines shown beside the board (Position::info_messages), the
# other texts being the game's own (GameInfo). The French are in fr.ftl.

ackenhead-info-move = move { $number }, { $quiet ->
    [one] { $quiet } ply
   *[other] { $quiet } plies
} without capture or pawn move
ackenhead-info-check = check
ackenhead-info-en-passant = en passant possible on { $cell }
