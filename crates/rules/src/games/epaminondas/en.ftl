# Epaminondas in English: the lines shown beside the board (Position::info_messages), the
# other texts being the game's own (GameInfo). The French are in fr.ftl.

epaminondas-info-far-row = On the far row: { $player0 } { $count0 } (rank { $rank0 }), { $player1 } { $count1 } (rank { $rank1 })
epaminondas-info-pieces = Pieces: { $player0 } { $count0 }, { $player1 } { $count1 }
