# Jeu de Reines for people who read French, in the words of the original text (Termides et
# Myrmides, la Reine, le Conseiller, les Soldats, les Ouvriers, la Ponte, la région neutre,
# animiste ou cultiste). Keys: see ../ackenhead/fr.ftl.

reines-name = Jeu de Reines
reines-summary = Termides contre Myrmides sur 8 × 8 : prenez la Reine adverse, qui ne bouge pas ; les Ouvriers pris reviennent par la Ponte
reines-player-termides = Termides
reines-player-myrmides = Myrmides
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
