#!/usr/bin/env python3
"""Smoke check of the web app that anyone can run (Python 3 standard library only):

    tools/smoke.py [--bin target/release/myrmidon] [--game reines] [--seats human,computer:1]

Starts `myrmidon serve` on a fresh database in a temporary folder and a free port, creates a
game through the HTTP API, plays it to its end with legal moves taken from each state (the
computer answering for its seats), checks that the stored game reads back the same, and stops
the server. Prints one line per step; exits non-zero on any failure.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def request(base, method, path, body=None):
    """One request; a 429 (too many requests from this client) waits as Retry-After says."""
    data = json.dumps(body).encode() if body is not None else None
    for _ in range(100):
        req = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            if e.code == 429:
                time.sleep(float(e.headers.get("Retry-After", "1")))
                continue
            return e.code, json.load(e)
    raise SystemExit(f"{method} {path}: still refused with 429 after 100 tries")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "myrmidon"))
    ap.add_argument("--game", default="reines")
    ap.add_argument("--seats", default="human,computer:1")
    ap.add_argument("--max-moves", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "smoke.db")
        server = subprocess.Popen([args.bin, "serve", "--port", "0", "--db", db, "--think-ms", "50"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            if "http://" not in line:
                sys.exit(f"smoke: the server did not start: {line!r}")
            base = "http://" + line.split("http://")[1].split("/")[0]
            print(f"smoke: server at {base}, database {db}")
            status, created = request(base, "POST", "/api/games",
                                      {"game": args.game, "seats": args.seats.split(",")})
            if status != 201:
                sys.exit(f"smoke: creating the game: {status} {created}")
            gid, tokens = created["id"], created["tokens"]
            print(f"smoke: game {gid} ({args.game}, seats {args.seats})")
            state, moves = created["state"], 0
            deadline = time.time() + 600
            while state["outcome"] is None:
                if time.time() > deadline:
                    sys.exit("smoke: the game did not end in 10 minutes")
                seat = state["to_move"]
                if state["thinking"] or tokens[seat] is None:
                    time.sleep(0.02)
                    status, state = request(base, "GET", f"/api/games/{gid}")
                    continue
                move = rng.choice(state["legal"])
                status, state = request(base, "POST", f"/api/games/{gid}/moves",
                                        {"move": move, "token": tokens[seat]})
                if status != 200:
                    sys.exit(f"smoke: move {move}: {status} {state}")
                moves += 1
                if moves > args.max_moves:
                    sys.exit(f"smoke: no end after {args.max_moves} moves")
            print(f"smoke: {len(state['moves'])} moves, {state['outcome']['text']}")
            status, again = request(base, "GET", f"/api/games/{gid}")
            if status != 200 or again["moves"] != state["moves"]:
                sys.exit("smoke: the stored game differs")
            print("smoke: ok")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
