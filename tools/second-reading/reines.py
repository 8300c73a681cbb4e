#!/usr/bin/env python3
"""Independent implementation of Jeu de Reines (game id `reines`) from /work/shared/rules/reines.md.

Plain and clear, no speed tricks.
Usage:
  reines.py moves "<pos>"
  reines.py perft N "<pos>"
  reines.py play "<pos>" <move> [<move> ...]   (prints the position string after each move)
  reines.py start [neutral|animist|cultist]
"""
import sys

from runlength import read_row, write_row

FILES = "abcdefgh"

START = {
    "neutral": "5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1",
    "animist": "5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1",
    "cultist": "5S1Q/4W1C1/5W1S/6W1/1w6/s1w5/1c1w4/q1s5 b d2c3b4g5f6e7 -/- 0 1",
}


def sqname(f, r):
    return FILES[f] + str(r + 1)


def parse_sq(s):
    if len(s) != 2 or s[0] not in FILES or s[1] not in "12345678":
        raise ValueError("bad square " + s)
    return (FILES.index(s[0]), int(s[1]) - 1)


def colour_of(piece):
    return "w" if piece.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Pos:
    def __init__(self):
        self.board = {}  # (f, r) -> piece letter
        self.to_move = "w"
        self.unmoved = set()  # squares (f, r)
        self.pending = {"w": [], "b": []}  # list of counters
        self.quiet = 0
        self.movenum = 1
        self.a1_colour = None  # colour in the a1 corner (first player)

    def copy(self):
        p = Pos()
        p.board = dict(self.board)
        p.to_move = self.to_move
        p.unmoved = set(self.unmoved)
        p.pending = {"w": list(self.pending["w"]), "b": list(self.pending["b"])}
        p.quiet = self.quiet
        p.movenum = self.movenum
        p.a1_colour = self.a1_colour
        return p

    # ---- seating ----
    def is_a1_player(self, colour):
        return colour == self.a1_colour

    def forward_dirs(self, colour):
        if self.is_a1_player(colour):
            return [(0, 1), (1, 0)]  # north, east
        return [(0, -1), (-1, 0)]  # south, west

    def worker_capture_dirs(self, colour):
        if self.is_a1_player(colour):
            return [(1, 1), (-1, 1), (1, -1)]  # NE, NW, SE
        return [(-1, -1), (1, -1), (-1, 1)]  # SW, SE, NW

    def ponte_square(self, colour):
        return (1, 1) if self.is_a1_player(colour) else (6, 6)

    def queens(self):
        return [(sq, p) for sq, p in self.board.items() if p in "Qq"]

    def game_over(self):
        return len(self.queens()) < 2


def parse(s):
    fields = s.split(" ")
    if len(fields) != 6:
        raise ValueError("need 6 fields")
    place, tm, unm, ponte, quiet, mn = fields
    p = Pos()
    ranks = place.split("/")
    if len(ranks) != 8:
        raise ValueError("need 8 ranks")
    for i, row in enumerate(ranks):
        r = 7 - i
        pieces, length = read_row(row, 1)
        for f, ch in pieces:
            if ch not in "QCSWqcsw":
                raise ValueError("bad char")
            if f > 7:
                raise ValueError("rank too long")
            p.board[(f, r)] = ch
        if length != 8:
            raise ValueError("rank length")
    if tm not in ("w", "b"):
        raise ValueError("to move")
    p.to_move = tm
    qs = p.queens()
    if not qs or len(qs) > 2:
        raise ValueError("queens")
    for sq, q in qs:
        if sq not in ((0, 0), (7, 7)):
            raise ValueError("queen off corner")
    if len(qs) == 2:
        if qs[0][1] == qs[1][1] or qs[0][0] == qs[1][0]:
            raise ValueError("queens")
    for sq, q in qs:
        c = colour_of(q)
        if sq == (0, 0):
            p.a1_colour = c
        else:
            p.a1_colour = other(c)
    if unm != "-":
        if len(unm) % 2:
            raise ValueError("unmoved")
        for i in range(0, len(unm), 2):
            sq = parse_sq(unm[i:i + 2])
            if p.board.get(sq, "").upper() != "W":
                raise ValueError("unmoved not worker")
            p.unmoved.add(sq)
    pw, pb = ponte.split("/")
    for col, txt in (("w", pw), ("b", pb)):
        if txt != "-":
            for ch in txt:
                if ch not in "01":
                    raise ValueError("ponte digit")
                p.pending[col].append(int(ch))
    p.quiet = int(quiet)
    p.movenum = int(mn)
    return p


def fmt(p):
    rows = [write_row([p.board.get((f, r)) for f in range(8)]) for r in range(7, -1, -1)]
    unm = ""
    for r in range(8):
        for f in range(8):
            if (f, r) in p.unmoved:
                unm += sqname(f, r)
    if not unm:
        unm = "-"

    def pt(lst):
        return "".join(str(c) for c in sorted(lst)) if lst else "-"

    return "%s %s %s %s/%s %d %d" % ("/".join(rows), p.to_move, unm, pt(p.pending["w"]),
                                      pt(p.pending["b"]), p.quiet, p.movenum)


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def gen_moves(p):
    """List of (from, to, is_capture) plus 'pass' if none. Empty when game over."""
    if p.game_over():
        return []
    me = p.to_move
    out = []
    for (f, r), pc in sorted(p.board.items()):
        if colour_of(pc) != me:
            continue
        kind = pc.upper()
        if kind == "C":
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nf, nr = f + df, r + dr
                while on_board(nf, nr):
                    t = p.board.get((nf, nr))
                    if t is None:
                        out.append(((f, r), (nf, nr), False))
                    else:
                        if colour_of(t) != me:
                            out.append(((f, r), (nf, nr), True))
                        break
                    nf += df
                    nr += dr
        elif kind == "S":
            for df, dr in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
                nf, nr = f + df, r + dr
                if not on_board(nf, nr):
                    continue
                t = p.board.get((nf, nr))
                if t is None:
                    out.append(((f, r), (nf, nr), False))
                elif colour_of(t) != me:
                    out.append(((f, r), (nf, nr), True))
        elif kind == "W":
            for df, dr in p.forward_dirs(me):
                nf, nr = f + df, r + dr
                if on_board(nf, nr) and (nf, nr) not in p.board:
                    out.append(((f, r), (nf, nr), False))
                    if (f, r) in p.unmoved:
                        nf2, nr2 = nf + df, nr + dr
                        if on_board(nf2, nr2) and (nf2, nr2) not in p.board:
                            out.append(((f, r), (nf2, nr2), False))
            for df, dr in p.worker_capture_dirs(me):
                nf, nr = f + df, r + dr
                if not on_board(nf, nr):
                    continue
                t = p.board.get((nf, nr))
                if t is not None and colour_of(t) != me:
                    out.append(((f, r), (nf, nr), True))
        # Queen never moves
    if not out:
        return ["pass"]
    return out


def move_text(m):
    if m == "pass":
        return "pass"
    fr, to, cap = m
    return sqname(*fr) + ("x" if cap else "-") + sqname(*to)


def ponte_step(p, colour):
    """Start-of-turn step for `colour`."""
    p.pending[colour] = [max(0, c - 1) for c in p.pending[colour]]
    if 0 in p.pending[colour]:
        sq = p.ponte_square(colour)
        if sq not in p.board:
            p.pending[colour].remove(0)
            p.board[sq] = "W" if colour == "w" else "w"
            p.unmoved.add(sq)


def apply(p, m):
    q = p.copy()
    me = q.to_move
    reset = False
    if m != "pass":
        fr, to, cap = m
        pc = q.board.pop(fr)
        victim = q.board.get(to)
        if victim is not None:
            reset = True
            if victim.upper() == "W":
                q.unmoved.discard(to)
                q.pending[colour_of(victim)].append(2)
        if pc.upper() == "W":
            reset = True
            q.unmoved.discard(fr)
        q.board[to] = pc
    q.quiet = 0 if reset else q.quiet + 1
    if not q.is_a1_player(me):
        q.movenum += 1
    q.to_move = other(me)
    if not q.game_over():
        ponte_step(q, q.to_move)
    return q


def perft(p, depth):
    if depth == 0:
        return 1
    ms = gen_moves(p)
    if depth == 1:
        return len(ms)
    return sum(perft(apply(p, m), depth - 1) for m in ms)


def find_move(p, text):
    for m in gen_moves(p):
        if move_text(m) == text:
            return m
    raise ValueError("illegal move " + text)


def main(argv):
    cmd = argv[1]
    if cmd == "moves":
        p = parse(argv[2])
        for m in gen_moves(p):
            print(move_text(m))
    elif cmd == "perft":
        print(perft(parse(argv[3]), int(argv[2])))
    elif cmd == "play":
        p = parse(argv[2])
        for t in argv[3:]:
            p = apply(p, find_move(p, t))
            print(fmt(p))
    elif cmd == "start":
        print(START[argv[2] if len(argv) > 2 else "neutral"])
    else:
        raise SystemExit("unknown command")


if __name__ == "__main__":
    main(sys.argv)
