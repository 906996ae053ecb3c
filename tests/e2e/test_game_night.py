"""Done means (issue 25): a game night played through the pages only, in Chromium, at 1280 and 375 px.

v11.2: the game master schedules and musters a battle where the defender (РККА) has two players, ivan and
petr, each with his own roster, and the attacker (Вермахт) one, hans. They play three turns (РККА 1,
Вермахт 1, РККА 2) with postures, moves, fire with a rolled and an entered die, a wound test, «Ход». The
test asserts that every fire and test sentence states its outcome; that after a submit the page lands on
the recording panel with the player's last entry (the die large) and the form still in view; that the
muster and the start cannot be voided from the table while another void first says what it takes with it;
that a take-back works before the opponent acts and is refused after; that a player cannot record for
his partner's units (not offered, and a forged form or API call is refused); that the side's turn ends
only when both its players said «Ход».

Flames of War: `test_game_night_fow` (two turns through the FoW quick panel, with the helpers of this file).

Every click, choice and typed field is counted (``Hands``): moving one unit takes ≤ 2, firing with a
rolled die ≤ 3, ending the turn ≤ 2 (with its confirmation).

Where the product does not do what the issue asks, the step is kept as a soft check (``Gaps``): the
game master stands in so the evening goes on, and the test fails at its end naming each gap.

Set SHTAB_SHOTS=<dir> to keep screenshots of the key moments (full pages, and ``*-screen`` for the
visible screen).
"""
from __future__ import annotations

import json
import re
import time
from contextlib import contextmanager

import pytest

from tests.e2e import test_battle_table as battle_table
from tests.e2e.conftest import recorded

club = battle_table.club  # the fixture this file builds on: ivan and hans with their submitted rosters
Shots, _login = battle_table.Shots, battle_table._login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = [1280, 375]


# --- fixtures: only what exists before the evening ----------------------------------------------------
@pytest.fixture
def night(club):
    """``club`` (ivan for РККА, hans for Вермахт, each with a submitted roster) plus petr, ivan's partner
    for РККА, with his own roster: one squad, «2-е отделение»."""
    from django.contrib.auth.models import Group, User

    from campaign import services
    from campaign.models import Nationality
    from rosters import services as rosters
    from tests.battles.conftest import build_roster

    petr = User.objects.create_user(username="petr", password="pw-petr")
    petr.groups.add(Group.objects.get(name="player"))
    character = services.character_create(owner=petr, name="Пётр Лапин", rank="lieutenant",
                                          nationality=Nationality.objects.get(code="su"))
    m = services.membership_request(campaign=club.campaign, character=character)
    services.membership_assign_side(membership=m, side="defender", by=club.gm)
    roster = build_roster(petr, character, club.campaign, name="Отделение Лапина", submit=False)
    rosters.unit_rename(user=petr, roster=roster, unit=roster.units.get(name="1-е отделение"), name="2-е отделение")
    rosters.roster_submit(user=petr, roster=roster)
    club.petr, club.petr_char = petr, character
    return club


# --- helpers --------------------------------------------------------------------------------------------
class Hands:
    """What the players do with their hands: each click, each choice in a select, each field typed (typing
    and pressing Enter to send is one). ``measure`` counts one action's interactions."""

    def __init__(self) -> None:
        self.count = 0
        self.measured: dict[str, list[int]] = {}

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def choose(self, select, value: str) -> None:
        self.count += 1
        select.select_option(value)

    def type(self, field, text: str, *, send: bool = False) -> None:
        self.count += 1
        field.fill(text)
        if send:
            field.press("Enter")

    @contextmanager
    def measure(self, what: str):
        start = self.count
        yield
        self.measured.setdefault(what, []).append(self.count - start)


class Gaps(list):
    """What the issue asks and the product does not do yet: kept as checks, reported at the end."""

    def check(self, what: str, assertion) -> bool:
        try:
            assertion()
        except AssertionError as exc:
            self.append(f"{what}: {str(exc).splitlines()[0][:300]}")
            return False
        return True


def option(select, text: str | re.Pattern) -> str:
    """The value of the one option whose label matches (reading the page is no interaction)."""
    found = select.locator("option", has_text=text)
    count = found.count()
    assert count == 1, f"{count} options match {text!r} in {select.locator('option').all_inner_texts()}"
    return found.get_attribute("value")


def settle(page) -> None:
    """The page shows the state at its log's head (the worker has replayed what was just recorded)."""
    page.wait_for_function("() => { const b = document.getElementById('battle');"
                           " return b && b.dataset.state === b.dataset.head; }", timeout=20000)


def head(page) -> int:
    return int(page.locator("#battle").get_attribute("data-head"))


def caught_up(page, seq: int) -> None:
    """Without a reload: the page's live polling has brought it (its forms included) to entry ``seq``.
    The page polls every second, and at once when it is shown again: the test says it was shown, to
    wait less (the same request and the same swap as the timer's)."""
    ready = ("(seq) => { const b = document.getElementById('battle');"
             " return b && +b.dataset.head >= seq && b.dataset.state === b.dataset.head; }")
    if not page.evaluate(ready, seq):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function(ready, arg=seq, timeout=20000)


@contextmanager
def submitting(page):
    """A recording form's POST, sent by the page's script: the page stays (no navigation) and shows
    the regions again once the worker has told the entry's outcome, or the refusal at once."""
    with page.expect_response(lambda r: r.request.method == "POST"
                              and ("/record/" in r.url or "/take-back/" in r.url)) as answer:
        yield
    assert not answer.value.request.is_navigation_request(), "the recording form left the page"
    recorded(page)


@contextmanager
def navigating(page):
    """A game master's form (outside the recording panel): its POST and the page it lands on."""
    with page.expect_navigation():
        yield
    settle(page)


def log_count(page) -> int:
    return page.locator("#log-region li").count()


def landed(page, form: str, text: str) -> None:
    """After a submit: the recording panel with the player's last entry, and the form still in view."""
    from playwright.sync_api import expect

    card = page.locator("#last-entry")
    expect(card).to_contain_text(text)
    expect(card).to_be_in_viewport()
    if page.locator(f"#rec-{form}").count():
        expect(page.locator(f"#rec-{form}")).to_be_in_viewport()


def tappable(locator, within: float = 1.0) -> None:
    """On the screen, and not under anything (the bottom action bar at 375 px): a tap hits it. Within
    ``within`` seconds: a <details data-reveal> brings its button into view on its ``toggle`` event, which
    the browser fires a moment after it opens (shtab.js)."""
    deadline = time.monotonic() + within
    while True:
        hit = locator.evaluate("e => { const r = e.getBoundingClientRect(), x = r.left + r.width / 2,"
                               " y = r.top + r.height / 2; const top = document.elementFromPoint(x, y);"
                               " return y >= 0 && y <= innerHeight && !!top && (top === e || e.contains(top))"
                               " ? '' : (top ? top.outerHTML.slice(0, 80) : 'off the screen'); }")
        if not hit or time.monotonic() > deadline:
            break
        locator.page.wait_for_timeout(50)
    assert not hit, f"covered by {hit}"


def stale_bar(page) -> None:
    """Every link of the bottom action bar leads to a form the page has."""
    links = page.locator("nav.action-bar a[href^='#rec-']").evaluate_all("as => as.map(a => a.hash)")
    missing = [h for h in links if not page.locator(h).count()]
    assert not missing, f"the action bar offers {missing}, not on the page"


def whole_words(page) -> None:
    """At phone width every action of the bottom bar shows its whole label on the screen (FoW's seven take two rows)."""
    cut = page.locator("nav.action-bar a").evaluate_all(
        "as => as.filter(a => a.scrollWidth > a.clientWidth || a.getBoundingClientRect().right > innerWidth)"
        ".map(a => a.textContent)")
    assert page.locator("nav.action-bar a").count() >= 7 and not cut, f"cut short: {cut}"


def to_move(page) -> str:
    return page.locator("#state-region .state-head strong").first.inner_text()


# --- v11.2 ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_night_of_three_turns_with_two_players_on_a_side(live_server, night, browser_page, width):
    from playwright.sync_api import expect

    base = live_server.url
    shot = Shots()
    hands, gaps = Hands(), Gaps()
    size = {"width": width, "height": 900 if width > 500 else 800}
    tag = f"{width}"

    def screen(page, name: str) -> None:
        if shot.dir:
            page.screenshot(path=str(shot.dir / f"gn-{tag}-{name}-screen.png"))
        shot(page, f"gn-{tag}-{name}")

    with browser_page(locale="ru-RU", viewport=size) as gm:
        browser = gm.context.browser
        # --- the game master schedules the battle and musters three rosters, two of them for РККА ------
        _login(gm, base, "master", f"/campaigns/{night.campaign.id}/")
        gm.get_by_role("link", name="Назначить бой").click()
        gm.fill("#id_name", "Ночной бой у моста")
        gm.fill("#id_mission", "Удержать мост через Рессу.")
        gm.get_by_label("Мост через Рессу").check()
        gm.get_by_role("button", name="Назначить").click()
        expect(gm.locator(".messages")).to_contain_text("Бой назначен")
        for side, roster in (("defender", "Рота Громова"), ("defender", "Отделение Лапина"),
                             ("attacker", "Kampfgruppe Weber")):
            select = gm.locator(f"#roster-{side}")
            select.select_option(option(select, roster))
            gm.locator(f"form:has(#roster-{side})").get_by_role("button", name="Добавить").click()
            expect(gm.locator(".messages")).to_contain_text("Участник добавлен")
        defenders = gm.locator("section.side", has=gm.locator("#side-defender"))
        expect(defenders).to_contain_text("Иван Громов")
        expect(defenders).to_contain_text("Пётр Лапин")
        gm.get_by_role("button", name="Выставить силы и начать бой").click()
        expect(defenders).to_contain_text("2-е отделение")
        screen(gm, "01-mustered")
        gm.get_by_role("link", name="Перейти к странице боя").click()
        battle_url = gm.url.split("#")[0]
        battle_path = battle_url[len(base):]
        battle_id = int(re.search(r"/battles/(\d+)/", battle_path).group(1))

        # --- the muster and the start cannot be voided from the table (V-TURN-13) ------------------------
        void = gm.locator("#gm form").filter(has=gm.get_by_label("Запись №"))
        start_seq = gm.locator("#log-region li", has_text="Бой начался").get_attribute("value")
        entries = log_count(gm)
        for seq in ("1", start_seq):
            void.get_by_label("Запись №").fill(seq)
            void.get_by_label("Причина").fill("Перевыставить силы")
            void.get_by_role("button", name="Отменить").click()
            expect(gm.locator("#gm .error")).to_contain_text("V-TURN-13")
            expect(gm.locator("#void-confirm")).to_have_count(0)
            gaps.check("the refused void lands where the game master sees its refusal", lambda: expect(
                gm.locator("#gm .error")).to_be_in_viewport(timeout=300))
            assert log_count(gm) == entries and not gm.locator("#log-region del").count()
        screen(gm, "02-gm-muster-void-refused")

        # --- three players, three browsers --------------------------------------------------------------
        pages = {}
        for who in ("ivan", "petr", "hans"):
            page = browser.new_context(locale="ru-RU", viewport=size).new_page()
            page.set_default_timeout(15000)
            _login(page, base, who, battle_path)
            page.wait_for_url(f"**{battle_path}")
            pages[who] = page
        ivan, petr, hans = pages["ivan"], pages["petr"], pages["hans"]
        screen(ivan, "03-ivan-turn1")
        latest = head(ivan)

        def sync(page) -> None:
            caught_up(page, latest)

        def done(page) -> int:
            nonlocal latest
            latest = max(latest, head(page))
            return latest

        # --- РККА, turn 1: each player declares the postures of his own units (V-TURN-9) -------------------
        def declare(page, units: list[str], posture: str = "assault") -> bool:
            """The player sets each of his units' posture and records; True when stored."""
            form = page.locator("#rec-postures")
            for unit in units:
                hands.choose(form.get_by_label(re.compile(rf"^{unit}(?!,)")), posture)
            with submitting(page):
                hands.click(form.get_by_role("button", name="Записать"))
            done(page)
            return page.locator("#rec-postures .refusal").count() == 0

        def gm_declares(units: list[str]) -> None:
            """The game master stands in: he records the postures of the whole side."""
            gm.goto(battle_url)
            form = gm.locator("#rec-postures")
            for unit in units:
                form.get_by_label(re.compile(rf"^{unit}(?!,)")).select_option("assault")
            with submitting(gm):
                form.get_by_role("button", name="Записать").click()
            done(gm)

        def postures_of_the_side(turn: int) -> None:
            """РККА's postures: ivan's units, then petr's (each only his own, issue 25)."""
            sync(ivan)
            mine = ivan.locator("#rec-postures select")
            labels = " ".join(mine.evaluate_all("els => els.map(e => e.closest('label').innerText)"))
            assert "1-е отделение" in labels and "2-е отделение" not in labels, labels  # not his partner's
            stored = declare(ivan, ["1-е отделение"])
            gaps.check(f"turn {turn}: ivan declares the postures of his own units only (V-TURN-9 with two players)",
                       lambda: expect(ivan.locator("#rec-postures .refusal")).to_have_count(0, timeout=300))
            if stored:
                landed(ivan, "postures", "объявили положения")
                sync(petr)
                if petr.locator("#rec-postures").count():
                    gaps.check(f"turn {turn}: petr declares his own postures",
                               lambda: (declare(petr, ["2-е отделение"]), expect(
                                   petr.locator("#rec-postures .refusal")).to_have_count(0, timeout=300)))
            else:
                screen(ivan, f"04-ivan-postures-refused-turn{turn}")
                gm_declares(["1-е отделение", "2-е отделение"])
            for page in (ivan, petr):
                sync(page)
                expect(page.locator("#rec-quick_move")).to_be_visible()

        postures_of_the_side(1)

        # --- moves: each his own units, only those the rules let move, with the allowance -----------------
        def move(page, unit: str, inches: str, posture: str = "атака") -> None:
            form = page.locator("#rec-quick_move")
            who = form.get_by_label("Кто движется")
            with hands.measure("move one unit"):
                hands.choose(who, option(who, re.compile(rf"^{unit} · до \d+″ \({posture}\)$")))
                with submitting(page):
                    hands.type(form.get_by_label("Пройдено, дюймы"), inches, send=True)
            done(page)
            landed(page, "quick_move", f"передвинулись на {inches}″")

        sync(ivan)
        offered = ivan.locator("#rec-quick_move select option").evaluate_all(
            "os => os.map(o => o.value + ' ' + o.textContent)")
        offered += ivan.locator("#rec-quick_fire select[name=quick_fire-shooter] option").evaluate_all(
            "os => os.map(o => o.value + ' ' + o.textContent)")
        assert not [o for o in offered if "petr-" in o or "2-е отделение" in o], offered  # his partner's: not offered
        expect(ivan.locator("#rec-quick_move select option", has_text=re.compile(r"^1-е отделение · до 6″ \(атака\)$"))
               ).to_have_count(1)
        move(ivan, "1-е отделение", "5")
        screen(ivan, "05-ivan-moved")

        # a forged form (a devtools edit of the select) and a forged API call for petr's squad: refused, not stored
        sync(ivan)
        entries = log_count(ivan)
        forged = ivan.locator("#rec-quick_move")
        forged.locator("select option").nth(1).evaluate("o => { o.value = 'u:petr-s1'; o.selected = true; }")
        forged.get_by_label("Пройдено, дюймы").fill("1")
        with submitting(ivan):
            forged.get_by_role("button", name="Записать").click()
        expect(ivan.locator("#rec-quick_move")).to_contain_text(re.compile("товарищ|корректный вариант|допустим"))
        assert log_count(ivan) == entries
        petr_fighters = [v[2:] for v in petr.locator("#rec-quick_move select option").evaluate_all(
            "os => os.map(o => o.value)") if v.startswith("f:")]
        assert petr_fighters and all(f.startswith("petr-") for f in petr_fighters), petr_fighters
        csrf = next(c["value"] for c in ivan.context.cookies() if c["name"] == "csrftoken")
        api = ivan.request.post(f"{base}/api/battles/{battle_id}/events/", headers={
            "X-CSRFToken": csrf, "Content-Type": "application/json", "Referer": battle_url},
            data=json.dumps({"expected_seq": None, "events": [{"type": "fighters_moved", "data": {
                "side": "defender", "fighters": petr_fighters[:2], "distance": 1}}]}))
        assert api.status == 403 and "not_your_pieces" in api.text(), (api.status, api.text()[:500])
        ivan.goto(battle_url)
        assert log_count(ivan) == entries

        sync(petr)
        move(petr, "2-е отделение", "4")

        # --- fire: ivan with a die entered from the table, petr with the service's die ------------------
        def fire(page, shooter: str | re.Pattern, target: str | re.Pattern, distance: str,
                 die: str | None = None) -> str:
            """Records a shot; returns the die shown large on the player's last entry card."""
            form = page.locator("#rec-quick_fire")
            with hands.measure("fire with a rolled die" if die is None else "fire with an entered die"):
                if die is not None:
                    hands.choose(form.get_by_label("Кубик"), "entered")
                    hands.type(form.get_by_label("Выпавшее значение, 1–20"), die)
                for label, text in (("Стреляющий", shooter), ("Цель", target)):
                    select = form.get_by_label(label)
                    hands.choose(select, option(select, text))
                with submitting(page):
                    hands.type(form.get_by_label("Дистанция до цели, дюймы"), distance, send=True)
            done(page)
            landed(page, "quick_fire", "стреляет")
            big = page.locator("#last-entry .die")
            expect(big).to_have_text(re.compile(r"^\d{1,2}$"))
            expect(page.locator("#last-entry")).to_contain_text(re.compile("попадание|промах"))
            expect(page.locator("#last-entry")).to_contain_text("нужно ≥")
            return big.inner_text()

        sync(ivan)
        face = fire(ivan, "Лейтенант Иван Громов", re.compile(r"^Стрелок №1 \(стрелок\) — 1-е отделение ·"), "6",
                    die="20")
        assert face == "20"
        screen(ivan, "06-ivan-fired-entered-20")
        ivan_hit_seq = head(ivan)

        sync(petr)
        fire(petr, re.compile(r"^Стрелок №4 \(стрелок\) — 2-е отделение"), re.compile(r"^Стрелок №2 \(стрелок\) — 1-е отделение ·"),
             "5")
        screen(petr, "07-petr-fired-rolled")
        # his own last entry, before anyone else acts: he takes it back (V-TURN-13); the log keeps it, struck
        taken = head(petr)
        with submitting(petr):
            hands.click(petr.locator("#last-entry").get_by_role("button", name="Взять назад"))
        done(petr)
        landed(petr, "quick_fire", f"взяли назад свою запись №{taken}")
        expect(petr.locator(f"#seq{taken} del")).to_contain_text("стреляет")
        screen(petr, "08-petr-took-back")

        fire(petr, re.compile(r"^Стрелок №1 \(стрелок\) — 2-е отделение"),
             re.compile(r"^Стрелок №3 \(стрелок\) — 1-е отделение ·"), "5")
        petr_fire_seq = head(petr)
        expect(petr.locator("#last-entry").get_by_role("button", name="Взять назад")).to_be_visible()

        # the opponent acts: hans records a morale test of his fire team under fire (off his turn, V-MORALE-1)
        sync(hans)
        hans.locator("details.more > summary").click()  # (folded: one click away)
        hans.locator("nav.more").get_by_role("link", name="Тест на мораль").click()
        morale = hans.locator("#rec-morale_test")
        morale.get_by_label("Подразделение").select_option(
            option(morale.get_by_label("Подразделение"), "1-е отделение, огневая группа 2"))
        morale.get_by_label("Кубик").select_option(label="введён со стола")
        morale.locator("input.die-value").first.fill("12")
        with submitting(hans):
            morale.get_by_role("button", name="Записать").click()
        done(hans)
        expect(hans.locator("#log-region")).to_contain_text("Тест на мораль")

        # ...after which petr's take-back is neither offered nor taken
        sync(petr)
        expect(petr.locator("#last-entry").get_by_role("button", name="Взять назад")).to_have_count(0)
        entries = log_count(petr)
        token = petr.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
        refused = petr.request.post(f"{base}/battles/{battle_id}/take-back/", headers={"Referer": battle_url},
                                    form={"csrfmiddlewaretoken": token, "seq": str(petr_fire_seq)})
        assert refused.status in (403, 409, 422), refused.status
        petr.reload()
        assert log_count(petr) == entries and not petr.locator(f"#seq{petr_fire_seq} del").count()

        # --- «Ход»: the side's turn ends when both its players said it (V-TURN-12) ------------------------
        def end_turn(page, name: str, *, still: str | None = None, unused: str | None = None) -> None:
            turn = page.locator("#rec-quick_turn")
            with hands.measure("end the turn"):
                hands.click(turn.locator("summary"))
                yes = turn.get_by_role("button", name="Да, завершить ход («Ход»)")
                expect(yes).to_be_visible()
                gaps.check(f"{name}: the confirmation's button can be tapped once «Ход» is opened (no scrolling)",
                           lambda: tappable(yes))
                if unused:
                    expect(turn).to_contain_text(f"не действовали (не двигались и не стреляли): {unused}")
                if still:
                    expect(turn).to_contain_text(f"{still} — ещё играет")
                screen(page, name)
                with submitting(page):
                    hands.click(turn.get_by_role("button", name="Да, завершить ход («Ход»)"))
            done(page)

        sync(ivan)
        end_turn(ivan, "09-ivan-hod-confirm", still="Пётр Лапин", unused="1-е отделение, огневая группа 2")
        assert to_move(ivan) == "РККА"  # one of two players said «Ход»: the side still moves
        expect(ivan.locator("#rec-quick_turn")).to_contain_text("Пётр Лапин — ещё играет")
        screen(ivan, "09-ivan-after-hod")
        sync(petr)
        expect(petr.locator("#rec-quick_turn")).to_contain_text("Иван Громов — сказал «Ход»")
        expect(petr.locator("#rec-quick_turn")).to_contain_text("Пётр Лапин — ещё играет")
        end_turn(petr, "09-petr-hod-confirm")
        assert to_move(petr) == "Вермахт"
        sync(ivan)
        assert to_move(ivan) == "Вермахт"
        expect(ivan.locator("#log-region")).to_contain_text("«Ход»: РККА завершили ход 1")
        gaps.check("once the turn passed (live update), the quick-action bar points only at forms on the page",
                   lambda: stale_bar(ivan))

        # --- Вермахт, turn 1: hans alone; the wound test follows his man's wound (V-MED-3) ----------------
        sync(hans)
        hans.reload()  # he touched the morale form: the page leaves a touched form alone
        form = hans.locator("#rec-postures")
        hands.choose(form.get_by_label(re.compile(r"^1-е отделение(?!,)")), "assault")
        with submitting(hans):
            hands.click(form.get_by_role("button", name="Записать"))
        done(hans)
        landed(hans, "postures", "объявили положения")

        def wound_tests(page) -> int:
            """Each wound test the panel offers, pre-filled, sent as offered."""
            n = 0
            while page.locator("#rec-wound_test").count() and n < 4:
                test = page.locator("#rec-wound_test")
                with submitting(page):
                    hands.click(test.get_by_role("button", name="Записать"))
                done(page)
                expect(page.locator("#rec-wound_test .refusal")).to_have_count(0)
                landed(page, "wound_test", "Тест на ранение")
                expect(page.locator("#last-entry")).to_contain_text(re.compile("пройден|не пройден"))
                n += 1
            return n

        assert wound_tests(hans) >= 1  # ivan's 20 wounded his Стрелок №1
        screen(hans, "10-hans-wound-test")
        move(hans, "1-е отделение", "4")
        fire(hans, "Лейтенант Ганс Вебер", re.compile(r"^Сержант №1 — 1-е отделение ·"), "7")
        end_turn(hans, "10-hans-hod-confirm", unused="1-е отделение, огневая группа 2")
        assert to_move(hans) == "РККА"

        # --- РККА, turn 2 -------------------------------------------------------------------------------
        postures_of_the_side(2)
        for page in (ivan, petr):
            sync(page)
            wound_tests(page)
        sync(petr)
        move(petr, "2-е отделение", "3")
        sync(ivan)
        fire(ivan, re.compile(r"^Стрелок №2 \(стрелок\) — 1-е отделение"),
             re.compile(r"^Стрелок №4 \(стрелок\) — 1-е отделение ·"), "6")
        end_turn(ivan, "11-ivan-hod-turn2", still="Пётр Лапин")
        assert to_move(ivan) == "РККА"
        sync(petr)
        end_turn(petr, "11-petr-hod-turn2")
        assert to_move(petr) == "Вермахт"
        sync(ivan)
        expect(ivan.locator("#log-region")).to_contain_text("«Ход»: РККА завершили ход 2")

        # --- the game master voids ivan's hit: first what it takes with it, then «Да, отменить» -----------
        gm.goto(battle_url)
        void = gm.locator("#gm form").filter(has=gm.get_by_label("Запись №"))
        void.get_by_label("Запись №").fill(str(ivan_hit_seq))
        void.get_by_label("Причина").fill("Линии огня не было: дом")
        void.get_by_role("button", name="Отменить").click()
        confirm = gm.locator("#void-confirm")
        expect(confirm).to_contain_text(f"Отменить запись №{ivan_hit_seq}?")
        gaps.check("the void's question lands in view", lambda: expect(confirm).to_be_in_viewport(timeout=300))
        expect(confirm).to_contain_text("Лейтенант Иван Громов стреляет")
        expect(confirm).to_contain_text("Тест на ранение")  # the wound test it caused loses its effect
        screen(gm, "12-gm-void-confirm")
        with navigating(gm):
            confirm.get_by_role("button", name="Да, отменить").click()
        expect(gm.locator(f"#seq{ivan_hit_seq} del")).to_contain_text("Лейтенант Иван Громов стреляет")
        done(gm)

        # --- every fire and test sentence states its outcome ----------------------------------------------
        sync(ivan)
        # ivan's page merged the live answers' log tails: each entry once, in seq order, as a reload shows it
        merged = ivan.locator("#log-region li").evaluate_all("ls => ls.map(l => +l.value)")
        assert merged == sorted(set(merged)), merged
        lines = ivan.locator("#log-region li").evaluate_all(
            "ls => ls.map(l => [l.innerText, !!l.querySelector('del')])")
        fires = [t for t, voided in lines if not voided and " стреляет " in t]
        tests = [t for t, voided in lines if not voided and t.startswith("Тест на ранение")]
        assert len(fires) >= 3 and tests, lines  # five shots, two of them voided
        for text in fires:
            assert "Итог:" in text and re.search("попадание|промах", text) and "нужно ≥" in text, text
        for text in tests:
            assert "Итог:" in text and re.search("пройден|не пройден", text), text
        screen(ivan, "13-ivan-log")
        page_text = ivan.locator("main").inner_text()
        for raw in ("ivan-", "petr-", "hans-", "defender", "attacker", "None", "True", "dug_in"):
            assert raw not in page_text, raw

    # --- what the log holds ---------------------------------------------------------------------------------
    from battles.models import Battle, BattleEvent

    battle = Battle.objects.get(name="Ночной бой у моста")
    events = list(BattleEvent.objects.filter(battle=battle).select_related("recorded_by").order_by("seq"))
    done_by = [(e.type, e.recorded_by.username) for e in events]
    assert done_by[:3] == [("force_mustered", "master")] * 2 + [("battle_started", "master")]  # one per side
    assert ("fighters_moved", "petr") in done_by and ("fighters_moved", "ivan") in done_by
    assert not [e for e in events if e.type == "fighters_moved" and e.recorded_by.username == "ivan"
                and any(f.startswith("petr-") for f in e.data["fighters"])]
    assert [t for t, who in done_by if t in ("player_done", "turn_ended")] == [
        "player_done", "player_done", "turn_ended", "turn_ended", "player_done", "player_done", "turn_ended"]
    dice = [(e.recorded_by.username, e.data["struck"][0]["die"]["source"]) for e in events if e.type == "fire"]
    assert ("ivan", "entered") in dice and ("petr", "rolled") in dice and ("hans", "rolled") in dice
    corrections = [(e.recorded_by.username, e.data.get("side")) for e in events if e.type == "correction"]
    assert corrections == [("petr", "defender"), ("master", None)]

    limits = {"move one unit": 2, "fire with a rolled die": 3, "end the turn": 2}
    print(f"\n[{width}px] interactions:", {k: v for k, v in hands.measured.items()}, "gaps:", gaps)
    for what, limit in limits.items():
        assert hands.measured[what] and max(hands.measured[what]) <= limit, (what, hands.measured[what])
    assert not gaps, "what the issue asks and the pages do not do yet:\n- " + "\n- ".join(gaps)
