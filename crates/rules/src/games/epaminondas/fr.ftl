# Epaminondas for people who read French (the original text: phalange, damier, rangée).
# Keys: see ../ackenhead/fr.ftl.

epaminondas-name = Epaminondas
epaminondas-summary = le jeu de phalanges de Robert Abbott sur un damier de 14 × 12 : déplacez des lignes de pièces, prenez les phalanges plus petites, amenez plus de pièces que l'adversaire sur la rangée la plus éloignée
epaminondas-player-white = Blancs
    .number = plural
epaminondas-player-black = Noirs
    .number = plural
epaminondas-piece-W = pièce blanche
epaminondas-piece-B = pièce noire

# The lines shown beside the board (Position::info_messages; the English in en.ftl).
epaminondas-info-far-row = Sur la rangée la plus éloignée : { $player0 } { $count0 } (rangée { $rank0 }), { $player1 } { $count1 } (rangée { $rank1 })
epaminondas-info-pieces = Pièces : { $player0 } { $count0 }, { $player1 } { $count1 }
