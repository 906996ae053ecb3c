"""The append load of the broker-restart test, as its own process (the
production shape: the server process that appends is not the worker):
single-event appends, round-robin over the battles named on the command line,
each with its key, until ``--seconds`` have passed. Prints the number stored.

    python -m tests.faults.append_load --seconds 20 12 13 14

The broker being down never refuses an append (the log is the database's): the
replay hand-over logs the failure and the beat sweep queues the replay later.
"""
from __future__ import annotations

import argparse
import time

import django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("battles", type=int, nargs="+")
    args = parser.parse_args()
    django.setup()
    from battles.services import NewEvent, battle_event_append
    from bench import synthetic

    script = synthetic.battle(4000, seed=11)
    nxt = dict.fromkeys(args.battles, 0)
    stored, k = 0, 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        battle = args.battles[k % len(args.battles)]
        k += 1
        e = script[nxt[battle]]
        battle_event_append(battle_id=battle, events=[NewEvent(e.type, e.data, f"load-{e.seq}")], expected_seq=None,
                            as_game_master=True)
        nxt[battle] += 1
        stored += 1
        time.sleep(0.005)
    print(stored, flush=True)


if __name__ == "__main__":
    main()
