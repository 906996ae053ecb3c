"""Replays are queued coalesced (battles.log.replays): at most one pending per
battle, and a started replay lets the next one queue."""
from battles import services
from battles.log import replays


class FakeRedis:
    def __init__(self):
        self.keys = {}

    def pipeline(self, transaction=False):
        return FakePipe(self)

    def delete(self, key):
        self.keys.pop(key, None)


class FakePipe:
    def __init__(self, r):
        self.r, self.ops = r, []

    def set(self, key, value, nx=False, ex=None):
        self.ops.append(key)

    def execute(self):
        out = []
        for key in self.ops:
            out.append(key not in self.r.keys)
            self.r.keys.setdefault(key, "1")
        return out


def test_at_most_one_replay_is_pending_per_battle_and_a_started_one_lets_the_next_queue():
    redis, published = FakeRedis(), []
    c = replays.Coalescer(redis=lambda: redis, publish=published.append)
    c.dispatch([1, 2])
    c.dispatch([1])  # battle 1's replay has not started: nothing more to queue
    assert published == [1, 2] and c.coalesced == 1
    c.clear(1)  # the replay of battle 1 starts (before it reads the log)
    c.dispatch([1, 2])
    assert published == [1, 2, 1] and c.coalesced == 2


def test_a_publish_that_fails_clears_the_flag_so_the_next_append_tries_again():
    redis = FakeRedis()

    def down(battle_id):
        raise ConnectionError("broker down")

    c = replays.Coalescer(redis=lambda: redis, publish=down)
    c.dispatch([7])
    assert redis.keys == {} and c.published == 0


def test_the_replay_task_clears_the_flag_before_it_reads_the_log(monkeypatch, settings):
    from battles import tasks

    order = []
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(replays.COALESCER, "clear", lambda battle_id: order.append(("clear", battle_id)))
    monkeypatch.setattr(services, "battle_replay", lambda battle_id, rebuild: order.append(("replay", battle_id))
                        or services.ReplayResult(battle_id, 0, 0, False, False))
    tasks.replay_battle.run(5)
    assert order == [("clear", 5), ("replay", 5)]


def test_handing_over_a_battle_returns_at_once_and_the_dispatcher_publishes_it(settings):
    import threading

    settings.CELERY_TASK_ALWAYS_EAGER = False
    redis, done = FakeRedis(), threading.Event()
    published = []
    c = replays.Coalescer(redis=lambda: redis, publish=lambda b: (published.append(b), done.set()))
    c.add(3)
    assert done.wait(5) and published == [3]


def test_hand_overs_within_the_linger_are_flagged_in_one_round(settings):
    import threading
    import time

    settings.CELERY_TASK_ALWAYS_EAGER = False
    redis, done, rounds = FakeRedis(), threading.Event(), []
    c = replays.Coalescer(redis=lambda: redis, publish=lambda b: None, linger=0.3)
    c.dispatch = lambda ids: (rounds.append(sorted(ids)), done.set())
    c.add(1)
    time.sleep(0.05)  # well inside the linger: without it, battle 1's round would be gone by now
    c.add(2)
    assert done.wait(5) and rounds == [[1, 2]]
