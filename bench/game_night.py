"""Game night (issue 25): how many battles this machine serves at once, and how
fast one player's entry reaches the other's open page.

The production shape: ``config.serve`` (granian serving ``config.wsgi``), a
real Celery worker replaying, PostgreSQL and Redis. Every battle has two
players and one onlooker, each a simulated browser on its own keep-alive
connection that does what the battle page does:

* a **player** loads the battle page, then polls ``battle-live`` exactly as
  the page's script does (``?since=<head>&state=<projection seq>``, its delays,
  the regions swapped from the answer). On his side's turn he records at a
  human pace through the page's own form (``POST /battles/{id}/record/``: the
  postures, a move of one unit, a shot with the die rolled by the service,
  «Ход»), sent as the page's script sends it (``X-Requested-With: fetch``: the
  answer is the entry's seq, and the page asks for the regions once the state
  has reached it; a refusal answers the regions with the reason). The table
  records one entry every 5 s (each player one every 10 s).
* the **onlooker** reads the campaign's standings page and the battle page,
  and polls that page like the players, every ``SPECTATOR_CYCLE`` seconds again,
  each at a moment of his own (his first cycle is cut at random): the onlookers
  arrive within the ramp, and until 2026-12-05 they then reloaded together in
  the same few seconds of every cycle, so that every page the figure counted was
  loaded in that burst (bench/HISTORY.md, "Game night, fourteenth session").

``game_night_tables``: the largest number of such tables for which the p95 of
page loads (battle page, standings) stays <= 200 ms and the p95 of records
(the POST, to its answer) <= 150 ms, over a probe of fixed length with no
errors. ``live_update_p95_ms``: at that count, for every entry, the time from
its answer at the recording player to the first poll answer of his opponent's
page that carries it (``changed`` and ``head_seq`` reaching its seq).

The load generator is one asyncio process with a small HTTP/1.1 client of its
own (keep-alive, gzip as a browser asks); its CPU time is reported, since it
shares the machine's cores with the server it measures.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

GOAL_PAGE_MS = 200.0
GOAL_RECORD_MS = 150.0
GOAL_TABLES = 200
GOAL_LIVE_MS = 1500.0
ENTRY_EVERY_S = 5.0  # per table: each of its two players one entry every 10 s
SPECTATOR_CYCLE = 30.0  # the onlooker reloads the standings and the battle page this often
# The page's script (battles/static/battles/table.js): its poll delay, and the quicker one
# while the state lags the log.
POLL_S, QUICK_S = 1.0, 0.5
# An ended battle whose results are not recorded yet (the script's): asked again every 2 s for 30 asks, then
# every 15 s until they come.
CONCLUDING_S, CONCLUDING_ASKS, CONCLUDING_LATER_S = 2.0, 30, 15.0
PRE_PLAYED = 60  # events of each battle before the evening's probes (its opening and a few turns)


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else float("nan")


# --- the world --------------------------------------------------------------------------------
def build(*, tables: int, seed: int = 25) -> dict[str, Any]:
    """One running campaign with ``tables`` battles, each with two players (a
    participant per side, his own login) and an onlooker; every battle opened
    and a few turns in (``bench.synthetic``), replayed. Returns the ids and
    the session cookies."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from battles import services
    from battles.models import Battle, BattleParticipant
    from bench import synthetic
    from campaign.models import Campaign, Character, Membership, Nationality
    from campaign.roles import GAME_MASTER, PLAYER

    t0 = time.perf_counter()
    gm = User.objects.create_user("night-gm")
    gm.groups.add(Group.objects.get(name=GAME_MASTER))
    campaign = Campaign.objects.create(name="Bench: game night", status="running", game_master=gm,
                                       attacker_name="Вермахт", defender_name="РККА")
    su = Nationality.objects.get(code="su")
    player_group = Group.objects.get(name=PLAYER)
    names = [f"night-{i}-{role}" for i in range(tables) for role in ("attacker", "defender", "onlooker")]
    User.objects.bulk_create([User(username=n, password="!") for n in names])  # unusable passwords: no hashing
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    player_group.user_set.add(*users.values())
    chars = Character.objects.bulk_create([
        Character(owner=users[n], name=f"Боец {n}", nationality=su, rank="lieutenant") for n in names
        if not n.endswith("onlooker")])
    by_owner = {c.owner_id: c for c in chars}
    Membership.objects.bulk_create([
        Membership(campaign=campaign, player=users[n], character=by_owner[users[n].pk],
                   side=n.rsplit("-", 1)[1], status="active") for n in names if not n.endswith("onlooker")])
    opening = synthetic.battle(PRE_PLAYED, seed=seed)
    battles = []
    for i in range(tables):
        battle = services.battle_create(campaign=campaign, name=f"Стол {i + 1}")
        Battle.objects.filter(pk=battle.pk).update(rules={})  # the synthetic battle plays by the defaults
        BattleParticipant.objects.bulk_create([
            BattleParticipant(battle=battle, character=by_owner[users[f"night-{i}-{side}"].pk], side=side)
            for side in ("attacker", "defender")])
        services.battle_event_append(
            battle_id=battle.id, expected_seq=0, as_game_master=True, recorded_by=gm,
            events=[services.NewEvent(type=e.type, data=e.data, schema_version=e.version) for e in opening])
        services.battle_replay(battle_id=battle.id)
        battles.append(battle.id)
    cookies = {}
    for n, u in users.items():
        c = Client()
        c.force_login(u)
        cookies[n] = c.cookies["sessionid"].value
    return {"campaign": campaign.id, "battles": battles, "cookies": cookies, "pre_played": PRE_PLAYED,
            "build_seconds": time.perf_counter() - t0}


# --- a small HTTP/1.1 client (asyncio, keep-alive, cookies, gzip) ------------------------------
class HttpError(Exception):
    pass


class Browser:
    """One simulated browser: its own keep-alive connection and cookies."""

    def __init__(self, port: int, cookies: dict[str, str]) -> None:
        self.port = port
        self.cookies = dict(cookies)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, *, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        for attempt in (0, 1):  # a keep-alive connection the server closed: once more on a new one
            if self.writer is None:
                await self._connect()
            try:
                return await self._exchange(method, path, body, headers or {})
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("not reached")

    async def _exchange(self, method: str, path: str, body: bytes,
                        headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None and self.writer is not None
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept-Encoding: gzip",
                "Accept-Language: ru"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        out: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            k, _, v = line.decode("latin-1").partition(":")
            k, v = k.strip().lower(), v.strip()
            if k == "set-cookie":
                name, _, rest = v.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            out[k] = v
        if out.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            while await self.reader.readuntil(b"\r\n") != b"\r\n":
                pass
            data = b"".join(parts)
        else:
            data = await self.reader.readexactly(int(out.get("content-length", "0")))
        if out.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        if out.get("connection", "").lower() == "close":
            self.close()
        return status, out, data


# --- what a page holds: its script's state and its recording forms -----------------------------
_DATA = re.compile(r'id="battle"[^>]*?data-head="(\d+)" data-state="(\d+)"(?: data-wait="(\d+)")?')
_FORM = re.compile(r'<form method="post" action="(/battles/\d+/record/)[^"]*">(.*?)</form>', re.S)
_INPUT = re.compile(r'<input\b([^>]*)>')
_SELECT = re.compile(r'<select\b([^>]*)>(.*?)</select>', re.S)
_OPTION = re.compile(r'<option value="([^"]*)"( selected)?')
_REFUSAL = re.compile(r'<p class="refusal"[^>]*>(?:<strong>([^<]+)</strong>)?')
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


@dataclass
class Form:
    """One recording form as a browser holds it."""

    action: str
    fields: dict[str, str]  # what the browser would send as the form stands
    choices: dict[str, list[str]]  # each select's option values
    required: set[str]  # the selects the player must choose in


def record_forms(html: str) -> dict[str, Form]:
    """The recording forms of a page or of a live answer's panel, by form id."""
    forms = {}
    for action, body in _FORM.findall(html):
        form = Form(action, {}, {}, set())
        for attrs in _INPUT.findall(body):
            a = dict(_ATTR.findall(attrs))
            if "name" in a and a.get("type") not in ("checkbox", "radio", "submit"):
                form.fields[a["name"]] = a.get("value", "")
        for attrs, options in _SELECT.findall(body):
            name = dict(_ATTR.findall(attrs)).get("name", "")
            opts = _OPTION.findall(options)
            form.fields[name] = next((v for v, sel in opts if sel), opts[0][0] if opts else "")  # as a browser
            form.choices[name] = [v for v, _ in opts if v]
            if re.search(r"\brequired\b", attrs):
                form.required.add(name)
        if "form" in form.fields:
            forms[form.fields["form"]] = form
    return forms


# --- the evening ------------------------------------------------------------------------------
PLAN = ("postures", "quick_move", "quick_fire", "quick_turn")  # a side's turn at the table (V-TURN-9..12)
PICK = {"who": "u:", "target": "f:"}  # a unit moves; the rifles fire at men
# A unit the page gives no posture goes in assault (it moves and fires); distances in inches within its reach.
FILL = {r"postures-units__\d+": "assault", "quick_move-distance": "4", "quick_fire-distance": "6"}


@dataclass
class Stats:
    window: tuple[float, float]
    page: list[float] = field(default_factory=list)  # battle page loads, ms
    standings: list[float] = field(default_factory=list)
    record: list[float] = field(default_factory=list)  # the POST to its answer, ms
    poll: list[float] = field(default_factory=list)
    live: list[float] = field(default_factory=list)  # an entry's answer -> the opponent's page shows it, ms
    statuses: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)  # form and rule of each refused entry
    errors: list[str] = field(default_factory=list)
    renders: int = 0  # poll answers that carried the regions (the rest said nothing moved)
    lagging: int = 0  # of them, rendered while the state lagged the log (to be rendered again)
    unseen: int = 0  # entries acknowledged in the window the opponent's page never showed before the end
    routes: dict[str, dict[str, float]] = field(default_factory=dict)  # the server's CPU by route (``by_route``)

    def inside(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    def count(self, what: str, status: int) -> None:
        key = f"{what} {status}"
        self.statuses[key] = self.statuses.get(key, 0) + 1


@dataclass
class Table:
    battle: int
    due: float
    head: int = 0
    mover: str | None = None  # the side whose player's page shows the quick forms
    step: int = 0
    held: dict[str, str] = field(default_factory=dict)  # the postures to keep after a refusal
    acked: dict[int, tuple[str, float]] = field(default_factory=dict)  # seq -> (side, answered at)
    seen: dict[str, int] = field(default_factory=dict)  # side -> the highest seq its page has shown


class Page:
    """The battle page in one browser, as its script runs it: the head and
    state it holds, its recording forms, and when it polls next."""

    def __init__(self, browser: Browser, table: Table, side: str | None, stats: Stats, live_url: str) -> None:
        self.browser, self.table, self.side, self.stats = browser, table, side, stats
        self.live_url = live_url
        self.head = self.state = 0
        self.quick = 0
        self.waiting = 0.0  # when this page's own entry was stored, until the regions bring it
        self.forms: dict[str, Form] = {}
        self.next_poll = 0.0
        self.wait = 0  # the page's data-wait: its live requests wait at the server for the battle to move
        self.waited = False
        self.poller: Browser | None = None  # (waiting requests go on a connection of their own)
        self.concluding, self.concluding_asks = False, 0  # (the bench's battles never end: as the script)

    def delay(self) -> float:
        """The page's script's ``delay()`` (battles/static/battles/table.js): the page is visible."""
        if self.concluding and self.concluding_asks < CONCLUDING_ASKS:
            return CONCLUDING_S
        if self.concluding:
            return CONCLUDING_LATER_S
        if self.waited:
            return 0.0
        if self.state != self.head and self.quick < 20:
            self.quick += 1
            return QUICK_S
        if self.state == self.head:
            self.quick = 0
        return POLL_S

    def loaded(self, html: str, at: float) -> None:
        """A fresh page: its script starts over."""
        m = _DATA.search(html)
        if m is None:
            raise HttpError("the battle page has no live region")
        self.head, self.state = int(m.group(1)), int(m.group(2))
        self.wait = int(m.group(3) or 0)
        self.concluding = 'data-concluding="1"' in html
        if self.wait and self.poller is None:  # a browser sends a request while another waits: a second connection
            self.poller = Browser(self.browser.port, self.browser.cookies)
        self.quick = 0
        self.forms = record_forms(html)
        self.shown(self.head, at)
        self.next_poll = at + self.delay()

    def shown(self, head: int, at: float) -> None:
        """This page now shows the log up to ``head``: the opponent's entries up to there have arrived."""
        if self.side is None:
            return
        t = self.table
        for seq in range(t.seen.get(self.side, 0) + 1, head + 1):
            side_at = t.acked.get(seq)
            if side_at is not None and side_at[0] != self.side:
                del t.acked[seq]
                if self.stats.inside(side_at[1]):
                    self.stats.live.append((at - side_at[1]) * 1000)
        t.seen[self.side] = max(t.seen.get(self.side, 0), head)

    async def load(self, path: str) -> None:
        t = time.perf_counter()
        status, _, body = await self.browser.request("GET", path)
        done = time.perf_counter()
        self.stats.count("page", status)
        if status != 200:
            raise HttpError(f"GET {path} answered {status}")
        if self.stats.inside(t):
            self.stats.page.append((done - t) * 1000)
        self.loaded(body.decode(), done)

    def recorded(self, head: int, at: float) -> None:
        """The script after a stored entry: the head moves on, the state stays until the outcome is told;
        the next poll in 300 ms (``waitingSince``)."""
        self.head = head
        self.waiting = at
        self.next_poll = at + 0.3

    def answered(self, d: dict[str, Any], at: float) -> None:
        """The script's ``apply`` of an answer that carries the regions (a refusal, or a live answer)."""
        if d.get("changed"):
            self.waiting = 0.0
            if d.get("record_html") is not None:  # the script swaps the recording forms in (keeping what was typed)
                self.forms = record_forms(d["record_html"])
            self.shown(d["head_seq"], at)
            if "concluded" in d:
                self.concluding = not d["concluded"]
        self.head, self.state = d["head_seq"], d["state_seq"]

    async def poll(self) -> None:
        force = self.waiting and time.perf_counter() - self.waiting > 3.0  # the script's 3 s wait for the outcome
        if self.concluding:
            force = True
            self.concluding_asks += 1
        query = {"since": -1 if force else self.head, "state": self.state}
        waits = bool(self.wait and not force)
        if waits:
            query["wait"] = self.wait
        url = f"{self.live_url}?{urlencode(query)}"
        t = time.perf_counter()
        self.waited = False
        browser = self.poller if waits and self.poller is not None else self.browser
        status, _, body = await browser.request("GET", url, headers={"Accept": "application/json"})
        done = time.perf_counter()
        self.stats.count("poll", status)
        if status == 200:
            if self.stats.inside(t) and not waits:  # (a waiting request's time is the battle's, not the server's)
                self.stats.poll.append((done - t) * 1000)
            d = json.loads(body)
            self.waited = waits and (bool(d.get("changed")) or done - t > 1.0)
            if d.get("changed") and self.stats.inside(t):
                self.stats.renders += 1
                self.stats.lagging += d["state_seq"] != d["head_seq"]
            self.answered(d, done)
        # the script ignores a failed poll and tries again after the usual delay
        self.next_poll = done + self.delay()


async def _sleep_until(at: float) -> None:
    pause = at - time.perf_counter()
    if pause > 0:
        await asyncio.sleep(pause)


async def player(page: Page, end: float, rng: random.Random) -> None:
    """A player: his page polls; when the table's next entry is due and his
    page offers his side's turn, he sends the next form of the turn's plan
    and his page goes on as its script does."""
    t = page.table
    await page.load(f"/battles/{t.battle}/")
    waiting = asyncio.create_task(_waiting_polls(page, end)) if page.wait else None
    def my_turn() -> bool:  # the page offers his side's «Ход» for the head it shows
        return "quick_turn" in page.forms and page.forms["quick_turn"].fields.get("expected_seq") == str(page.head)

    try:
        while True:
            mine = my_turn()
            if mine:
                t.mover = page.side
            if waiting is not None:  # the page's live requests go on by themselves: look at it now and then
                wake = min(t.due if mine else time.perf_counter() + 0.05, end)
            else:
                wake = min(page.next_poll, t.due if mine else end, end)
            await _sleep_until(wake)
            now = time.perf_counter()
            if now >= end:
                return
            if mine and now >= t.due and my_turn():  # (his page's live answer may have moved on meanwhile)
                await record(page, rng)
            elif waiting is None and now >= page.next_poll:
                await page.poll()
    finally:
        await _stop(waiting, page)


async def _waiting_polls(page: Page, end: float) -> None:
    """A page whose live requests wait at the server: one after another, on their own connection."""
    while time.perf_counter() < end:
        await _sleep_until(page.next_poll)
        await page.poll()


async def _stop(task: asyncio.Task | None, page: Page) -> None:
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    if page.poller is not None:
        page.poller.close()  # (a request cut off mid-answer: the next one opens a new connection)


def filled(form: Form, rng: random.Random, held: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """A player's submission of one of ``record_forms``'s forms: (action,
    fields). He picks what he must and the page left blank (a unit to move,
    a man to shoot at), puts his units in assault unless ``held`` (the
    postures the rules refused to let him change: he keeps them), fills in
    the distances and leaves the die to the service."""
    data = dict(form.fields)
    for name in form.required:
        if not data.get(name) and form.choices[name]:
            liked = [c for c in form.choices[name] if c.startswith(PICK.get(name.rsplit("-", 1)[-1], ""))]
            data[name] = rng.choice(liked or form.choices[name])
    for name in data:
        value = next((v for pattern, v in FILL.items() if re.fullmatch(pattern, name)), None)
        if value is not None and (name not in form.choices or value in form.choices[name]):
            data[name] = value
    data.update({k: v for k, v in (held or {}).items() if k in data})
    return form.action, data


async def record(page: Page, rng: random.Random) -> None:
    t = page.table
    # (a form whose required select offers nothing, nobody able to move say, he passes by: the panel says why)
    form_id = next((f for f in PLAN[t.step:] if f in page.forms
                    and all(page.forms[f].choices.get(n) for n in page.forms[f].required)), "quick_turn")
    fields = page.forms[form_id].fields
    action, data = filled(page.forms[form_id], rng, t.held if form_id == "postures" else None)
    data.setdefault("csrfmiddlewaretoken", page.browser.cookies.get("csrftoken", ""))
    data.update(shown_since=str(page.head), shown_state=str(page.state))  # as the script: what its page shows
    body = urlencode(data).encode()
    start = time.perf_counter()
    status, headers, answer = await page.browser.request(
        "POST", action, body=body, headers={"Content-Type": "application/x-www-form-urlencoded",
                                            "Origin": f"http://127.0.0.1:{page.browser.port}",
                                            "Accept": "application/json", "X-Requested-With": "fetch"})
    acked = time.perf_counter()
    page.stats.count(f"record {form_id}", status)
    if page.stats.inside(start):
        page.stats.record.append((acked - start) * 1000)
    t.due = max(t.due + ENTRY_EVERY_S, acked + ENTRY_EVERY_S / 2)  # late: no burst to catch up
    retry = False
    if form_id == "postures":  # refused (a morale result holds a posture, V-MORALE-2): again, as they stand
        retry = status == 422 and not t.held
        t.held = {k: v for k, v in fields.items() if k.startswith("postures-units__")} if retry else {}
    if status == 200:  # stored: the page says «recorded» and asks for the regions once the outcome is told
        d = json.loads(answer)
        t.head = d["head_seq"]
        t.acked[t.head] = (page.side or "", acked)
        if form_id == "quick_turn":
            t.step, t.mover = 0, None
        else:
            t.step = PLAN.index(form_id) + 1
        page.recorded(d["head_seq"], acked)
    elif status in (400, 409, 422):  # refused or stale: the regions again, with the reason; the next form then
        d = json.loads(answer)
        why = _REFUSAL.search(d.get("record_html", ""))
        key = f"{form_id} {why.group(1) if why else status}"
        page.stats.refusals[key] = page.stats.refusals.get(key, 0) + 1
        if status != 409 and not retry:
            t.step = min(PLAN.index(form_id) + 1, len(PLAN) - 1)
        page.answered(d, acked)
    else:
        raise HttpError(f"POST {action} ({form_id}) answered {status}: {answer[:300]!r}")


async def onlooker(page: Page, campaign: int, end: float, phase: float) -> None:
    """A club member watching: the standings, then the battle page, which polls; again every cycle. His
    first cycle lasts ``phase`` (0 to a cycle): the onlookers reload at moments of their own, as people
    do, not all within the few seconds of the ramp in which they arrived."""
    t = page.table
    cycle = phase
    while time.perf_counter() < end:
        cycle_end = time.perf_counter() + cycle
        cycle = SPECTATOR_CYCLE
        start = time.perf_counter()
        status, _, _ = await page.browser.request("GET", f"/campaigns/{campaign}/standings/")
        done = time.perf_counter()
        page.stats.count("standings", status)
        if status != 200:
            raise HttpError(f"standings answered {status}")
        if page.stats.inside(start):
            page.stats.standings.append((done - start) * 1000)
        await page.load(f"/battles/{t.battle}/")
        if page.wait:
            waiting = asyncio.create_task(_waiting_polls(page, min(cycle_end, end)))
            await _sleep_until(min(cycle_end, end))
            await _stop(waiting, page)
            continue
        while True:
            wake = min(page.next_poll, cycle_end, end)
            await _sleep_until(wake)
            if time.perf_counter() >= min(cycle_end, end):
                break
            await page.poll()


async def _evening(port: int, built: dict[str, Any], tables: int, *, ramp: float, seconds: float,
                   seed: int, metrics_dir: str = "") -> Stats:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    window = (t0 + ramp + 2.0, t0 + ramp + 2.0 + seconds)
    stats = Stats(window)
    end = window[1]
    cookies = built["cookies"]
    tasks, browsers, tables_ = [], [], []

    async def routes() -> None:  # the server's CPU by route over the measured window
        await _sleep_until(window[0])
        before, start = route_cpu(metrics_dir), time.perf_counter()
        await _sleep_until(window[1])
        stats.routes = by_route(before, route_cpu(metrics_dir), time.perf_counter() - start)

    if metrics_dir:
        tasks.append(asyncio.create_task(routes()))

    async def guarded(coro, delay: float, browser: Browser) -> None:
        await asyncio.sleep(delay)
        try:
            await coro
        except Exception as exc:  # counted: a probe with errors fails
            stats.errors.append(f"{type(exc).__name__}: {exc}"[:300])
        finally:
            browser.close()

    from django.urls import reverse

    for i, battle in enumerate(built["battles"][:tables]):
        table = Table(battle, due=t0 + ramp + rng.uniform(0, ENTRY_EVERY_S))
        tables_.append(table)
        live_url = reverse("battle-live", args=[battle])
        for role in ("attacker", "defender", "onlooker"):
            b = Browser(port, {"sessionid": cookies[f"night-{i}-{role}"]})
            browsers.append(b)
            if role == "onlooker":
                page = Page(b, table, None, stats, live_url)
                coro = onlooker(page, built["campaign"], end, rng.uniform(0, SPECTATOR_CYCLE))
            else:
                page = Page(b, table, role, stats, live_url)
                coro = player(page, end, random.Random(rng.random()))
            tasks.append(asyncio.create_task(guarded(coro, rng.uniform(0, ramp), b)))
    await asyncio.gather(*tasks)
    for b in browsers:
        b.close()
    stats.unseen = sum(1 for t in tables_ for side, at in t.acked.values() if stats.inside(at))
    return stats


def session_cpu(sessions: dict[str, int], database: str = "") -> dict[str, dict[int, float]]:
    """CPU seconds so far of every process in each of these sessions (a server
    or a worker started in its own session) and, as ``postgres``, of the
    PostgreSQL backends serving ``database`` (their title names it), by pid,
    from /proc; empty elsewhere."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, dict[int, float]] = {name: {} for name in [*sessions, *(["postgres"] if database else [])]}
    by_sid = {sid: name for name, sid in sessions.items()}
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            name = by_sid.get(int(fields[3]))  # the session id (the fields after the command's name)
            if name is None and database:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    title = f.read()
                name = "postgres" if title.startswith(b"postgres: ") and f" {database} ".encode() in title else None
        except OSError:
            continue
        if name is not None:
            out[name][int(pid)] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return out


def cpu_used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict[str, float]:
    """CPU seconds each group used between two ``session_cpu`` readings (a
    process that ended in between counts up to its last reading)."""
    return {name: sum(t - before.get(name, {}).get(pid, 0.0) for pid, t in pids.items())
            for name, pids in after.items()}


def route_cpu(metrics_dir: str) -> dict[str, tuple[float, float]]:
    """(requests, CPU seconds) so far of each route the server answered, from its processes'
    counters (``shtab_http_request_cpu_seconds``, prometheus_client's multiprocess files)."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    out: dict[str, list[float]] = {}
    for family in MultiProcessCollector(CollectorRegistry(), path=metrics_dir).collect():
        for s in family.samples:
            if s.name == "shtab_http_request_duration_seconds_count":
                out.setdefault(s.labels["view"], [0.0, 0.0])[0] += s.value
            elif s.name == "shtab_http_request_cpu_seconds_total":
                out.setdefault(s.labels["view"], [0.0, 0.0])[1] += s.value
    return {view: (n, cpu) for view, (n, cpu) in out.items()}


def by_route(before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]],
             wall: float) -> dict[str, dict[str, float]]:
    """Each route's requests a second, CPU ms a request and share of a core between two
    ``route_cpu`` readings, the costliest first."""
    rows = {}
    for view, (n, cpu) in after.items():
        n0, cpu0 = before.get(view, (0.0, 0.0))
        if n > n0:
            rows[view] = {"per_s": (n - n0) / wall, "cpu_ms_each": 1000 * (cpu - cpu0) / (n - n0),
                          "cpu_share": (cpu - cpu0) / wall}
    return dict(sorted(rows.items(), key=lambda kv: -kv[1]["cpu_share"]))


def probe(port: int, built: dict[str, Any], tables: int, *, seconds: float, ramp: float = 8.0,
          seed: int = 0, sessions: dict[str, int] | None = None, metrics_dir: str = "") -> dict[str, Any]:
    """``tables`` tables for ``ramp`` + 2 + ``seconds`` seconds; the figures of the last ``seconds``.
    ``sessions`` names the server's and the worker's process sessions, whose CPU is reported with
    that of the bench database's PostgreSQL backends; ``metrics_dir``, the server's counters
    (``PROMETHEUS_MULTIPROC_DIR``), whose CPU by route is reported too."""
    from django.db import connection

    load = os.getloadavg()[0]
    database = connection.settings_dict["NAME"] if sessions else ""
    before = session_cpu(sessions or {}, database)
    last = {name: dict(pids) for name, pids in before.items()}
    done = threading.Event()

    def sample() -> None:  # every 2 s: a backend Django recycles (CONN_MAX_AGE) keeps all but its last seconds
        while not done.wait(2.0):
            for name, pids in session_cpu(sessions or {}, database).items():
                last.setdefault(name, {}).update(pids)

    sampler = threading.Thread(target=sample, daemon=True)
    if sessions:
        sampler.start()
    cpu = time.process_time()
    wall = time.perf_counter()
    stats = asyncio.run(_evening(port, built, tables, ramp=ramp, seconds=seconds, seed=seed, metrics_dir=metrics_dir))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    done.set()
    if sessions:
        sampler.join()
    for name, pids in session_cpu(sessions or {}, database).items():
        last.setdefault(name, {}).update(pids)
    used = {k: v / wall for k, v in cpu_used(before, last).items()}
    pages = stats.page + stats.standings
    out = {
        "tables": tables, "seconds": seconds,
        "page_p95_ms": _p95(pages), "battle_page_p95_ms": _p95(stats.page),
        "standings_p95_ms": _p95(stats.standings), "record_p95_ms": _p95(stats.record),
        "record_median_ms": statistics.median(stats.record) if stats.record else float("nan"),
        "poll_p95_ms": _p95(stats.poll), "live_update_p95_ms": _p95(stats.live),
        "live_update_median_ms": statistics.median(stats.live) if stats.live else float("nan"),
        "pages": len(pages), "records": len(stats.record), "polls": len(stats.poll), "live_samples": len(stats.live),
        "live_unseen": stats.unseen, "poll_renders": stats.renders, "poll_renders_lagging": stats.lagging,
        "requests_per_s": (len(pages) + len(stats.record) + len(stats.poll)) / seconds,
        "statuses": dict(sorted(stats.statuses.items())), "refusals": stats.refusals, "errors": stats.errors[:5], "error_count": len(stats.errors),
        "client_cpu_share": cpu / wall, **{f"{k}_cpu_share": v for k, v in used.items()},
        # CPU ms per table and second: the cost of a table, which the machine's other load does not change much
        **{f"{k}_cpu_ms_per_table_s": 1000 * v / tables for k, v in used.items()},
        "load_before": load,
        # the server's CPU by route (its own counters): which answers the cores go to
        "server_cpu_by_route": {view: {k: round(v, 3) for k, v in row.items()} for view, row in stats.routes.items()},
    }
    out["passed"] = (not stats.errors and out["page_p95_ms"] <= GOAL_PAGE_MS and out["record_p95_ms"] <= GOAL_RECORD_MS
                     and bool(stats.record))
    return out


def measure(built: dict[str, Any], *, ladder: tuple[int, ...], seconds: float, bisect: int, workers: int,
            threads: int, concurrency: int = 2) -> dict[str, Any]:
    """Probe the ladder of table counts upwards until one fails (twice: see
    ``run``), then bisect between the last pass and that failure ``bisect``
    times. One server and one worker for the whole search; the battles go on
    from probe to probe."""
    import tempfile

    from bench import cases, env
    from config import serve

    probes: list[dict[str, Any]] = []
    wait = float(serve.environ(dict(os.environ)).get("SHTAB_LIVE_WAIT") or 0)  # the server's, as it starts
    env.purge_queue()
    env.clear_pending_flags()
    # (the server's counters, by route, in a directory of their own)
    with tempfile.TemporaryDirectory(prefix="shtab-bench-metrics-") as metrics_dir, \
            cases.Server(workers, threads, env={"PROMETHEUS_MULTIPROC_DIR": metrics_dir}) as server, \
            cases.Worker(concurrency) as worker:
        sessions = {"server": server.proc.pid, "worker": worker.proc.pid}
        probe(server.port, built, min(10, len(built["battles"])), seconds=3.0, ramp=2.0)  # warm-up, not kept

        def run(n: int) -> bool:
            """A count passes when one of two probes passes: the machine is shared, and a burst of
            someone else's work during one probe is not this count's doing."""
            return once(n) or once(n)

        def once(n: int) -> bool:
            r = probe(server.port, built, n, seconds=seconds, seed=len(probes) + 1, sessions=sessions,
                      metrics_dir=metrics_dir)
            probes.append(r)
            print(f"        {n} tables: page p95 {r['page_p95_ms']:.0f} ms, record p95 {r['record_p95_ms']:.0f} ms, "
                  f"live p95 {r['live_update_p95_ms']:.0f} ms, {r['requests_per_s']:.0f} req/s, server CPU "
                  f"{r.get('server_cpu_share', 0):.2f} ({r.get('server_cpu_ms_per_table_s', 0):.1f} ms/s a table), "
                  f"worker {r.get('worker_cpu_share', 0):.2f}, PostgreSQL {r.get('postgres_cpu_share', 0):.2f}, load "
                  f"{r['load_before']:.1f}, "
                  f"{r['error_count']} errors: {'pass' if r['passed'] else 'fail'}", flush=True)
            print("          server CPU by route: " + ", ".join(
                f"{view} {row['per_s']:.1f}/s x {row['cpu_ms_each']:.1f} ms = {row['cpu_share']:.2f}"
                for view, row in list(r["server_cpu_by_route"].items())[:6]), flush=True)
            # Between probes the worker catches up, and the live requests the probe left waiting run out: a
            # browser that closed its connection leaves its request parked at the server (WSGI is not told)
            # until its wait ends, and the next probe's moves would wake them to render for nobody.
            time.sleep(2.0 + wait)
            return r["passed"]

        best, failed = 0, None
        for n in ladder:
            if n > len(built["battles"]):
                break
            if not run(n):
                failed = n
                break
            best = n
        for _ in range(bisect if failed else 0):
            mid = (best + failed) // 2
            if mid - best < max(5, best // 10):
                break
            if run(mid):
                best = mid
            else:
                failed = mid
    at = next((p for p in reversed(probes) if p["passed"] and p["tables"] == best), None)
    return {
        "game_night_tables": best,
        "live_update_p95_ms": at["live_update_p95_ms"] if at else float("nan"),
        "game_night_at_figure": at,
        "game_night_probes": probes,
        "game_night_layout": (f"granian {workers}x{threads}, {serve.CONNECTIONS} connections a process (config.serve), "
                              f"a Celery worker -c {concurrency}, "
                              f"PostgreSQL, Redis; per table two players (one entry every {ENTRY_EVERY_S * 2:g} s "
                              f"each through the page's form, then the page again) and an onlooker (standings and "
                              f"the battle page every {SPECTATOR_CYCLE:g} s), every page polling battle-live as its "
                              f"script does; probes of {seconds:g} s after an 8 s ramp; one asyncio client process"),
    }
