# Ackenhead chess for people who read French: what the pages show of this game (its GameInfo
# in English is the fallback). Keys: <id>-name, -summary, -player-<English name, lower case>
# (its attribute .number: how a sentence takes the name, singular or plural, "Les Blancs gagnent"),
# -piece-<letter>, -cell-<marked cell's English name>, -setting-<name>[-<value>|-help]
# (crates/server/src/i18n.rs reads them; crates/server/tests/i18n.rs checks them).

ackenhead-name = Échecs Ackenhead
ackenhead-summary = des échecs féeriques avec des canons (Léo, Pao, Vao), le Mao et des pions Bérolina
ackenhead-player-white = Blancs
    .number = plural
ackenhead-player-black = Noirs
    .number = plural
ackenhead-piece-K = Roi
ackenhead-piece-L = Léo
ackenhead-piece-C = Pao
ackenhead-piece-V = Vao
ackenhead-piece-M = Mao
ackenhead-piece-P = Pion Bérolina

# The lines shown beside the board (Position::info_messages; the English in en.ftl).
ackenhead-info-move = coup { $number }, { $quiet ->
    [one] { $quiet } demi-coup
   *[other] { $quiet } demi-coups
} sans prise ni coup de pion
ackenhead-info-check = échec
ackenhead-info-en-passant = prise en passant possible en { $cell }
