#!/usr/bin/env python3
"""Checks perft counts against a Fairy-Stockfish binary (built outside the repository).

    python3 tools/fsf_compare.py FAIRY_STOCKFISH VARIANTS_INI positions.tsv [--write OUT]

positions.tsv has `fen \t depth \t nodes` lines (ours). Prints each disagreement and a summary;
with --write, writes Fairy-Stockfish's own counts in the same format (reference data).
"""
import subprocess
import sys


def main():
    binary, ini, path = sys.argv[1:4]
    out_path = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--write" else None
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send("uci")
    send(f"setoption name VariantPath value {ini}")
    send("setoption name UCI_Variant value ackenhead")
    send("isready")
    while p.stdout.readline().strip() != "readyok":
        pass
    bad = total = 0
    rows = []
    for line in open(path):
        fen, depth, nodes = line.rstrip("\n").split("\t")
        send(f"position fen {fen}")
        send(f"go perft {depth}")
        while True:
            l = p.stdout.readline()
            if l.startswith("Nodes searched"):
                theirs = int(l.split(":")[1])
                break
        total += 1
        rows.append(f"{fen}\t{depth}\t{theirs}")
        if theirs != int(nodes):
            bad += 1
            print(f"DIFF {fen} depth {depth}: ours {nodes}, Fairy-Stockfish {theirs}")
    send("quit")
    if out_path:
        open(out_path, "w").write("\n".join(rows) + "\n")
    print(f"{total - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
