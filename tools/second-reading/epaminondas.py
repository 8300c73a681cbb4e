#!/usr/bin/env python3
"""Independent, clarity-first implementation of Epaminondas (myrmidon rules file)."""
import sys

from runlength import read_row, write_row

FILES = "abcdefghijklmn"
NF, NR = 14, 12
DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def parse(pos):
    parts = pos.split(" ")
    if len(parts) != 2 or parts[1] not in ("w", "b"):
        raise ValueError("bad position: " + pos)
    ranks = parts[0].split("/")
    if len(ranks) != NR:
        raise ValueError("bad rank count")
    board = {}  # (file 0..13, rank 0..11) -> 'W'/'B'
    for i, rs in enumerate(ranks):
        r = NR - 1 - i
        pieces, length = read_row(rs, 1)
        for f, c in pieces:
            if c not in "WB":
                raise ValueError("bad char")
            if f >= NF:
                raise ValueError("rank too long")
            board[(f, r)] = c
        if length != NF:
            raise ValueError("rank length %d" % length)
    return board, parts[1]


def fmt(board, side):
    rows = [write_row([board.get((f, r)) for f in range(NF)]) for r in range(NR - 1, -1, -1)]
    return "/".join(rows) + " " + side


def sq(f, r):
    return FILES[f] + str(r + 1)


def onboard(f, r):
    return 0 <= f < NF and 0 <= r < NR


def game_over(board, side):
    me = "W" if side == "w" else "B"
    # White's far row is rank 12 (index 11); Black's far row is rank 1 (index 0)
    w_far = sum(1 for f in range(NF) if board.get((f, NR - 1)) == "W")
    b_far = sum(1 for f in range(NF) if board.get((f, 0)) == "B")
    if me == "W":
        return w_far > b_far
    return b_far > w_far


def gen(board, side):
    """Return list of (text, newboard)."""
    if game_over(board, side):
        return []
    me = "W" if side == "w" else "B"
    opp = "B" if me == "W" else "W"
    out = []
    for (f, r), p in sorted(board.items()):
        if p != me:
            continue
        for dx, dy in DIRS:
            # group
            k = 1
            while board.get((f + k * dx, r + k * dy)) == me:
                k += 1
            group = [(f + i * dx, r + i * dy) for i in range(k)]
            hx, hy = group[-1]
            for m in range(1, k + 1):
                tx, ty = hx + m * dx, hy + m * dy
                if not onboard(tx, ty):
                    break
                # squares passed over: head + 1..m-1 must be empty (checked by previous iterations)
                ok = all((hx + j * dx, hy + j * dy) not in board for j in range(1, m))
                if not ok:
                    break
                t = board.get((tx, ty))
                if t is None:
                    out.append((sq(f, r) + "-" + sq(tx, ty), moved(board, group, m, dx, dy, me, [])))
                    continue
                if t == me:
                    break
                # enemy: capture attempt, cannot go further
                L = 0
                while board.get((tx + L * dx, ty + L * dy)) == opp:
                    L += 1
                if L < k:
                    taken = [(tx + i * dx, ty + i * dy) for i in range(L)]
                    out.append((sq(f, r) + "x" + sq(tx, ty), moved(board, group, m, dx, dy, me, taken)))
                break
    return out


def moved(board, group, m, dx, dy, me, taken):
    """The board after `group` moves `m` squares along (dx, dy), taking the pieces on `taken`."""
    nb = dict(board)
    for c in taken:
        del nb[c]
    for g in group:
        del nb[g]
    for g in group:
        nb[(g[0] + m * dx, g[1] + m * dy)] = me
    return nb


def other(side):
    return "b" if side == "w" else "w"


def perft(board, side, d):
    if d == 0:
        return 1
    ms = gen(board, side)
    if d == 1:
        return len(ms)
    return sum(perft(nb, other(side), d - 1) for _, nb in ms)


def play(pos, mv):
    board, side = parse(pos)
    for t, nb in gen(board, side):
        if t == mv:
            return fmt(nb, other(side))
    raise ValueError("illegal move " + mv)


def main():
    cmd = sys.argv[1]
    if cmd == "moves":
        b, s = parse(sys.argv[2])
        for t, _ in gen(b, s):
            print(t)
    elif cmd == "perft":
        b, s = parse(sys.argv[3])
        print(perft(b, s, int(sys.argv[2])))
    elif cmd == "play":
        print(play(sys.argv[2], sys.argv[3]))
    else:
        raise SystemExit("usage")


if __name__ == "__main__":
    main()
