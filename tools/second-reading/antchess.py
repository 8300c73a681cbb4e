#!/usr/bin/env python3
"""Independent Ant Chess implementation (antchess / antchess3) from the rules text.

Usage:
  antchess.py [antchess|antchess3] moves "<pos>"
  antchess.py [antchess|antchess3] perft N "<pos>"
  antchess.py [antchess|antchess3] play "<pos>" <move> [<move>...]
  antchess.py [antchess|antchess3] random SEED NPLIES   (prints positions of a random game)
The game id may be omitted: it is then deduced from the position (a 'g' piece or 'g' to move
means 3 players) -- explicit is better.
"""
import sys
import random

from runlength import read_row, write_row

R = 6
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]  # u0..u5: E NE NW W SW SE
CENTRE = (0, 0)


def on_board(c):
    q, r = c
    return max(abs(q), abs(r), abs(q + r)) <= R


def is_edge(c):
    q, r = c
    return max(abs(q), abs(r), abs(q + r)) == R


def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def mul(k, d):
    return (k * d[0], k * d[1])


CELLS = [(q, r) for r in range(-R, R + 1) for q in range(-R, R + 1) if on_board((q, r))]
# reading order: by row (r) then q
ORDER = {c: i for i, c in enumerate(CELLS)}


def row_qmin(r):
    return max(-R, -R - r)


def name(c):
    q, r = c
    return 'abcdefghijklm'[r + R] + str(q - row_qmin(r) + 1)


NAMES = {c: name(c) for c in CELLS}
BYNAME = {v: k for k, v in NAMES.items()}


def corner(k):
    return mul(R, DIRS[k % 6])


def edge_line(j):
    a, b = corner(j), corner(j + 1)
    d = ((b[0] - a[0]) // R, (b[1] - a[1]) // R)
    return [add(a, mul(t, d)) for t in range(R + 1)]


class Game:
    def __init__(self, nplayers):
        self.n = nplayers
        if nplayers == 2:
            self.players = ['b', 'r']
            self.home = {'b': 3, 'r': 0}
            self.id = 'antchess'
        else:
            self.players = ['b', 'r', 'g']
            self.home = {'b': 3, 'r': 1, 'g': 5}
            self.id = 'antchess3'
        self.wdirs = {}
        self.promo = {}
        for p, k in self.home.items():
            self.wdirs[p] = [DIRS[(k + 3) % 6], DIRS[(k + 2) % 6], DIRS[(k + 4) % 6]]
            opp = k + 3
            self.promo[p] = set(edge_line(opp)) | set(edge_line(opp - 1))

    def setup(self):
        army = [('Q', (0, 0)), ('B', (1, 1)), ('L', (1, 0)), ('L', (0, 1)), ('G', (2, 1)),
                ('G', (1, 2)), ('W', (2, 0)), ('W', (0, 2))] + \
               [('A', x) for x in [(4, 0), (3, 0), (3, 1), (3, 2), (2, 2), (2, 3), (1, 3), (0, 3), (0, 4)]]
        board = {}
        for p, k in self.home.items():
            C = corner(k)
            for kind, (a, b) in army:
                c = add(add(C, mul(a, DIRS[(k - 2) % 6])), mul(b, DIRS[(k + 2) % 6]))
                assert on_board(c) and c not in board
                board[c] = (p, kind)
        return Pos(self, board, 'b', 0, 0, 1)


class Pos:
    def __init__(self, game, board, tomove, passes, quiet, moveno):
        self.g = game
        self.board = board
        self.tomove = tomove
        self.passes = passes
        self.quiet = quiet
        self.moveno = moveno

    # ---------------- text ----------------
    def fen(self):
        def text(c):
            return self.board[c][0] + self.board[c][1] if c in self.board else None

        rows = [
            write_row([text((q, r)) for q in range(row_qmin(r), row_qmin(r) + 2 * R + 1 - abs(r))])
            for r in range(-R, R + 1)
        ]
        return '%s %s %d %d %d' % ('/'.join(rows), self.tomove, self.passes, self.quiet, self.moveno)

    # ---------------- helpers ----------------
    def queen(self, p):
        qs = [c for c, v in self.board.items() if v == (p, 'Q')]
        return qs[0] if qs else None

    def enemy(self, p, c):
        v = self.board.get(c)
        return v is not None and v[0] != p

    def friend(self, p, c):
        v = self.board.get(c)
        return v is not None and v[0] == p

    # pseudo moves of player p: list of (from, to, frozenset(captures), promo)
    def pseudo(self, p):
        moves = set()
        for c, (owner, kind) in list(self.board.items()):
            if owner != p:
                continue
            if kind == 'Q':
                for d in DIRS:
                    t = add(c, d)
                    if on_board(t) and not self.friend(p, t):
                        moves.add((c, t, frozenset([t]) if self.enemy(p, t) else frozenset(), False))
            elif kind == 'A':
                for d in self.g.wdirs[p]:
                    t = add(c, d)
                    if on_board(t) and not self.friend(p, t):
                        moves.add((c, t, frozenset([t]) if self.enemy(p, t) else frozenset(),
                                   t in self.g.promo[p]))
            elif kind == 'S':
                for d in DIRS:
                    t = add(c, d)
                    if not on_board(t):
                        continue
                    if not self.friend(p, t):
                        moves.add((c, t, frozenset([t]) if self.enemy(p, t) else frozenset(), False))
                    if t in self.board:
                        continue
                    t2 = add(t, d)
                    if on_board(t2) and not self.friend(p, t2):
                        moves.add((c, t2, frozenset([t2]) if self.enemy(p, t2) else frozenset(), False))
            elif kind == 'B':
                for d in DIRS:
                    t = add(c, d)
                    while on_board(t):
                        if t in self.board:
                            if self.enemy(p, t):
                                moves.add((c, t, frozenset([t]), False))
                            break
                        moves.add((c, t, frozenset(), False))
                        t = add(t, d)
            elif kind == 'G':
                targets = set()
                for i in range(6):
                    targets.add(add(c, mul(2, DIRS[i])))
                    targets.add(add(add(c, DIRS[i]), DIRS[(i + 1) % 6]))
                assert len(targets) == 12
                for t in targets:
                    if on_board(t) and not self.friend(p, t):
                        moves.add((c, t, frozenset([t]) if self.enemy(p, t) else frozenset(), False))
            elif kind == 'L':
                for d in DIRS:
                    piv = add(c, d)
                    if not on_board(piv) or piv not in self.board:
                        continue
                    ring = [add(piv, e) for e in DIRS]  # cyclic order
                    i0 = ring.index(c)
                    for sense in (1, -1):
                        caps = set()
                        for step in range(1, 6):
                            t = ring[(i0 + sense * step) % 6]
                            if not on_board(t) or self.friend(p, t):
                                break
                            if self.enemy(p, t):
                                caps.add(t)
                            moves.add((c, t, frozenset(caps), False))
            elif kind == 'W':
                for d in DIRS:
                    line = []
                    t = add(c, d)
                    while on_board(t):
                        line.append(t)
                        t = add(t, d)
                    if not line:
                        continue
                    if is_edge(line[0]):
                        # along its own edge: every cell of the line is an edge cell
                        assert all(is_edge(x) for x in line)
                        dests = list(range(len(line)))
                    else:
                        dests = [len(line) - 1]
                    for di in dests:
                        dest = line[di]
                        assert is_edge(dest)
                        if dest in self.board:
                            continue
                        enemies = [x for x in line[:di] if self.enemy(p, x)]
                        if len(enemies) >= 2:
                            continue
                        moves.add((c, dest, frozenset(enemies), False))
            else:
                raise ValueError('bad kind')
        return moves

    def attacked_by(self, o):
        s = set()
        for m in self.pseudo(o):
            s |= m[2]
        return s

    def queen_attacked(self, p):
        qc = self.queen(p)
        if qc is None:
            return False
        for o in self.g.players:
            if o != p and qc in self.attacked_by(o):
                return True
        return False

    def apply(self, m):
        b = dict(self.board)
        p = self.tomove
        if m == 'pass':
            passes = self.passes + 1
            quiet = self.quiet + 1
        else:
            frm, to, caps, promo = m
            piece = b.pop(frm)
            for x in caps:
                assert b[x][0] != p
                del b[x]
            assert to not in b
            b[to] = (p, 'S') if promo else piece
            passes = 0
            if caps or piece[1] == 'A' or promo:
                quiet = 0
            else:
                quiet = self.quiet + 1
        pl = self.g.players
        i = pl.index(p)
        nxt = pl[(i + 1) % len(pl)]
        moveno = self.moveno + (1 if i == len(pl) - 1 else 0)
        return Pos(self.g, b, nxt, passes, quiet, moveno)

    def last_mover(self):
        pl = self.g.players
        return pl[(pl.index(self.tomove) - 1) % len(pl)]

    def over(self):
        if self.g.n == 3:
            nq = sum(1 for v in self.board.values() if v[1] == 'Q')
            if nq <= 1:
                return True
        lm = self.last_mover()
        if self.queen(lm) == CENTRE and not self.queen_attacked(lm):
            return True
        return False

    def legal(self):
        if self.over():
            return []
        p = self.tomove
        cand = list(self.pseudo(p)) + ['pass']
        if self.queen(p) is None:
            return cand
        leg = [m for m in cand if not self.apply(m).queen_attacked(p)]
        if not leg and self.g.n == 3:
            return cand
        return leg


def mtext(m):
    if m == 'pass':
        return 'pass'
    frm, to, caps, promo = m
    s = NAMES[frm] + '-' + NAMES[to]
    if caps:
        s += 'x' + ','.join(NAMES[c] for c in sorted(caps, key=lambda c: ORDER[c]))
    if promo:
        s += '=S'
    return s


def parse(game, text):
    f = text.split(' ')
    if len(f) != 5:
        raise ValueError('need 5 fields')
    rows = f[0].split('/')
    if len(rows) != 13:
        raise ValueError('need 13 rows')
    board = {}
    for ri, row in enumerate(rows):
        r = ri - R
        q0 = row_qmin(r)
        width = 2 * R + 1 - abs(r)
        pieces, length = read_row(row, 2)
        for place, text in pieces:
            if len(text) != 2 or text[0] not in game.players or text[1] not in 'QASBGLW':
                raise ValueError('bad piece %r' % text)
            if place >= width:
                raise ValueError('row too long')
            board[(q0 + place, r)] = (text[0], text[1])
        if length != width:
            raise ValueError('row %d has wrong length' % ri)
    tm = f[1]
    if tm not in game.players:
        raise ValueError('bad to-move')
    pos = Pos(game, board, tm, int(f[2]), int(f[3]), int(f[4]))
    for p in game.players:
        nq = sum(1 for v in board.values() if v == (p, 'Q'))
        if nq > 1:
            raise ValueError('two queens')
        if game.n == 2 and nq == 0:
            raise ValueError('no queen')
    for c, v in board.items():
        if v[1] == 'W' and not is_edge(c):
            raise ValueError('worm off edge')
    if pos.passes > pos.quiet:
        raise ValueError('passes > quiet')
    if game.n == 2:
        for p in game.players:
            if p != tm and pos.queen_attacked(p):
                raise ValueError('queen of player not to move attacked')
    return pos


def perft(pos, d):
    if d == 0:
        return 1
    ms = pos.legal()
    if d == 1:
        return len(ms)
    return sum(perft(pos.apply(m), d - 1) for m in ms)


def find_move(pos, text):
    for m in pos.legal():
        if mtext(m) == text:
            return m
    raise ValueError('illegal move %s' % text)


START = {
    'antchess': '7/8/bA7rA/bA8rA/bWbA7rArW/bLbGbA6rArGrL/bQbBbA7rArBrQ/bLbGbA6rArGrL/bWbA7rArW/bA8rA/bA7rA/8/7 b 0 0 1',
    'antchess3': '2rArArWrLrQ/4rArGrBrL/bA4rArArGrW/bA6rArArA/bWbA8rA/bLbGbA9/bQbBbA10/bLbGbA9/bWbA8gA/bA6gAgAgA/bA4gAgAgGgW/4gAgGgBgL/2gAgAgWgLgQ b 0 0 1',
}


def main(argv):
    gid = None
    if argv and argv[0] in ('antchess', 'antchess3'):
        gid = argv[0]
        argv = argv[1:]
    cmd = argv[0]

    def game_for(text):
        if gid:
            return Game(3 if gid == 'antchess3' else 2)
        three = ' g ' in text or 'g' in text.split(' ')[0]
        return Game(3 if three else 2)

    if cmd == 'moves':
        g = game_for(argv[1])
        pos = parse(g, argv[1])
        for m in pos.legal():
            print(mtext(m))
    elif cmd == 'perft':
        g = game_for(argv[2])
        pos = parse(g, argv[2])
        print(perft(pos, int(argv[1])))
    elif cmd == 'play':
        g = game_for(argv[1])
        pos = parse(g, argv[1])
        for t in argv[2:]:
            pos = pos.apply(find_move(pos, t))
        print(pos.fen())
    elif cmd == 'start':
        print(Game(3 if gid == 'antchess3' else 2).setup().fen())
    else:
        raise SystemExit('unknown command')


if __name__ == '__main__':
    main(sys.argv[1:])
