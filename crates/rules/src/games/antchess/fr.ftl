# Ant Chess (two and three players) for people who read French, in the words of the original
# text ("Jeu d'échecs fourmi": la Reine, les fourmis, la Super-Fourmi, la fourmilière). Keys:
# see ../ackenhead/fr.ftl.

antchess-name = Échecs fourmi
antchess-summary = les échecs fourmi à deux sur un hexagone de 127 cases : mettez la Reine adverse en échec et mat ou amenez la vôtre à la fourmilière
antchess-player-black = Noirs
    .number = plural
antchess-player-red = Rouges
    .number = plural
antchess-piece-Q = Reine
antchess-piece-A = Fourmi
antchess-piece-S = Super-Fourmi
antchess-piece-B = Scarabée
antchess-piece-G = Sauterelle
antchess-piece-L = Coccinelle
antchess-piece-W = Ver de terre
antchess-cell-anthill = fourmilière

antchess3-name = Échecs fourmi (3 joueurs)
antchess3-summary = les échecs fourmi à trois : atteignez la fourmilière le premier, ou gardez la dernière Reine debout
antchess3-player-black = Noirs
    .number = plural
antchess3-player-red = Rouges
    .number = plural
antchess3-player-green = Verts
    .number = plural
antchess3-piece-Q = Reine
antchess3-piece-A = Fourmi
antchess3-piece-S = Super-Fourmi
antchess3-piece-B = Scarabée
antchess3-piece-G = Sauterelle
antchess3-piece-L = Coccinelle
antchess3-piece-W = Ver de terre
antchess3-cell-anthill = fourmilière

# The lines shown beside the board, both games (Position::info_messages; the English in en.ftl).
antchess-info-move = Coup { $number }
antchess-info-queens = Reines : { $queens } (fourmilière { $anthill })
antchess-info-queen = { $player } { $cell }
antchess-info-queen-captured = { $player } : prise
antchess-info-passes = Passes consécutives : { $count } (nulle à { $limit })
antchess-info-quiet = Demi-coups sans prise : { $count } (nulle à { $limit })
antchess-info-check = Échec !
