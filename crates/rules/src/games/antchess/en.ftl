# Ant Chess (two and three players) in English: the lines shown beside the board
# (Position::info_messages), the other texts being the game's own (GameInfo). The French are
# in fr.ftl.

antchess-info-move = Move { $number }
antchess-info-queens = Queens: { $queens } (anthill { $anthill })
antchess-info-queen = { $player } { $cell }
antchess-info-queen-captured = { $player } captured
antchess-info-passes = Passes in a row: { $count } (draw at { $limit })
antchess-info-quiet = Quiet plies: { $count } (draw at { $limit })
antchess-info-check = Check!
