# Jeu de Reines for people who read French, in the words of the original text (Termides et
# Myrmides, la Reine, le Conseiller, les Soldats, les Ouvriers, la Ponte, la région neutre,
# animiste ou cultiste). Keys: see ../ackenhead/fr.ftl.

reines-name = Jeu de Reines
reines-summary = Termides contre Myrmides sur 8 × 8 : prenez la Reine adverse, qui ne bouge pas ; les Ouvriers pris reviennent par la Ponte
reines-player-termides = Termides
    .number = plural
reines-player-myrmides = Myrmides
    .number = plural
reines-piece-Q = Reine
reines-piece-C = Conseiller
reines-piece-S = Soldat
reines-piece-W = Ouvrier
reines-cell-ponte-of-the-termides = Ponte des Termides
reines-cell-ponte-of-the-myrmides = Ponte des Myrmides
reines-setting-region = Région
reines-setting-region-neutral = neutre
reines-setting-region-animist = animiste
reines-setting-region-cultist = cultiste
reines-setting-region-help = où se joue la partie : en région neutre ou animiste, les Termides tiennent le coin a1 et jouent les premiers ; en région cultiste, ce sont les Myrmides

# The lines shown beside the board (Position::info_messages; the English in en.ftl).
reines-info-region = Région : { $region ->
    [neutral] neutre
    [animist] animiste
    [cultist] cultiste
   *[other] neutre ou animiste
} (les { $player } tiennent a1 et jouent les premiers)
reines-info-ponte-empty = Ponte des { $player } ({ $cell }) : aucun Ouvrier en attente
reines-info-ponte = Ponte des { $player } ({ $cell }) : { $count ->
    [one] 1 Ouvrier en attente (compteur { $counters }) ; il revient
   *[other] { $count } Ouvriers en attente (compteurs { $counters }) ; le premier revient
} { $when ->
    [next-turn] au début de leur prochain tour
   *[other] juste après ce coup, au début de leur tour
}{ $square ->
    [occupied] { " " }si { $cell } est libre alors (occupée maintenant)
   *[other] { "" }
}{ $count ->
    [one] { "" }
   *[other] , les autres un tour plus tard chacun
}
reines-info-unmoved = Ouvriers qui n'ont pas bougé (peuvent avancer de deux) : { $players }
reines-info-unmoved-of = { $player } { $count ->
    [0] aucun
   *[other] { $cells }
}
reines-info-quiet = Demi-coups sans prise : { $count } sur { $limit } ; coup { $number }
reines-info-pass = Le dernier coup était une passe : une autre passe annule la partie.
