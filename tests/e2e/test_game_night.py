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

Flames of War: two turns through the FoW quick panel (move, At the Double, shoot with the dice the rules
give, «Ход»), asserting FoW words on the page and log sentences with target, distance, dice and result.

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


@pytest.fixture
def fow_club(transactional_db, game_master, replay_worker):
    """A running Flames of War campaign: ivan (РККА, defender) with a tank and a rifle platoon, hans
    (Вермахт, attacker) with an infantry and a recon platoon, each roster submitted."""
    from django.contrib.auth.models import Group, User

    from campaign import services
    from campaign.models import Campaign, Nationality
    from rosters import services as rosters
    from rosters.models import FowTeamType
    from tests.battles.test_fow_muster import build_fow_roster

    campaign = Campaign.objects.create(name="Осень сорок первого (FoW)", attacker_name="Вермахт",
                                       defender_name="РККА", ruleset="fow")
    ns = type("FowClub", (), {})()
    ns.campaign, ns.gm = campaign, game_master
    for username, name, side in (("ivan", "Иван Громов", "defender"), ("hans", "Ганс Вебер", "attacker")):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=name, rank="lieutenant",
                                              nationality=Nationality.objects.get(code="su" if side == "defender"
                                                                                 else "de"))
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        setattr(ns, username, user)
        setattr(ns, f"{username}_char", character)
    services.campaign_start(campaign=campaign, by=game_master)
    ns.hans_roster = build_fow_roster(ns.hans, ns.hans_char, campaign, name="Kampfgruppe Weber (FoW)")
    types = {t.code: t for t in FowTeamType.objects.all()}
    r = rosters.roster_create(user=ns.ivan, character=ns.ivan_char, name="Рота Громова (FoW)", campaign=campaign)
    tanks = rosters.unit_add(user=ns.ivan, roster=r, kind="fow_platoon", fow_kind="tank", name="Танковый взвод")
    rosters.fow_team_add(user=ns.ivan, roster=r, unit=tanks, team_type=types["medium_tank"], count=2)
    rifles = rosters.unit_add(user=ns.ivan, roster=r, kind="fow_platoon", fow_kind="infantry", name="Стрелковый взвод")
    rosters.fow_team_add(user=ns.ivan, roster=r, unit=rifles, team_type=types["command_team"])
    rosters.fow_team_add(user=ns.ivan, roster=r, unit=rifles, team_type=types["rifle_team"], count=2)
    rosters.roster_submit(user=ns.ivan, roster=r)
    ns.ivan_roster = r
    game_master.set_password("pw-master")
    game_master.save()
    return ns


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


def tappable(locator) -> None:
    """On the screen as it is, and not under anything (the bottom action bar at 375 px): a tap hits it."""
    hit = locator.evaluate("e => { const r = e.getBoundingClientRect(), x = r.left + r.width / 2,"
                           " y = r.top + r.height / 2; const top = document.elementFromPoint(x, y);"
                           " return y >= 0 && y <= innerHeight && !!top && (top === e || e.contains(top))"
                           " ? '' : (top ? top.outerHTML.slice(0, 80) : 'off the screen'); }")
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


# --- Flames of War ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_two_turns_of_flames_of_war_through_the_quick_panel(live_server, fow_club, browser_page, width):
    from playwright.sync_api import expect

    base, shot = live_server.url, Shots()
    hands, gaps = Hands(), Gaps()
    size = {"width": width, "height": 900 if width > 500 else 800}

    def screen(page, name: str) -> None:
        if shot.dir:
            page.screenshot(path=str(shot.dir / f"fow-{width}-{name}-screen.png"))
        shot(page, f"fow-{width}-{name}")

    with browser_page(locale="ru-RU", viewport=size) as gm:
        browser = gm.context.browser
        # --- the game master schedules and musters: inches, Вермахт first (the choice the seeds leave open) --
        _login(gm, base, "master", f"/campaigns/{fow_club.campaign.id}/")
        gm.get_by_role("link", name="Назначить бой").click()
        gm.fill("#id_name", "Бой у разъезда")
        gm.get_by_role("button", name="Назначить").click()
        for side, roster in (("defender", "Рота Громова (FoW)"), ("attacker", "Kampfgruppe Weber (FoW)")):
            select = gm.locator(f"#roster-{side}")
            select.select_option(option(select, roster))
            gm.locator(f"form:has(#roster-{side})").get_by_role("button", name="Добавить").click()
            expect(gm.locator(".messages")).to_contain_text("Участник добавлен")
        gm.get_by_role("radio", name="дюймы").check()
        gm.get_by_role("radio", name="Вермахт").check()
        gm.get_by_role("button", name="Выставить силы и начать бой").click()
        gm.get_by_role("link", name="Перейти к странице боя").click()
        battle_path = gm.url.split("#")[0][len(base):]

        pages = {}
        for who in ("ivan", "hans"):
            page = browser.new_context(locale="ru-RU", viewport=size).new_page()
            page.set_default_timeout(15000)
            _login(page, base, who, battle_path)
            page.wait_for_url(f"**{battle_path}")
            pages[who] = page
        ivan, hans = pages["ivan"], pages["hans"]
        latest = head(hans)

        def done(page) -> None:
            nonlocal latest
            latest = max(latest, head(page))

        def move(page, team: str, distance: str, *, double: bool = False, closest: str | None = None) -> None:
            form = page.locator("#rec-fow_move")
            select = form.get_by_label("Кто движется")
            with hands.measure("FoW: move at the double" if double else "FoW: move one team"):
                hands.choose(select, option(select, re.compile(rf"^{team} — до \d+″, С Удвоенной Скоростью до \d+″$")))
                if double:
                    hands.click(form.get_by_label("С Удвоенной Скоростью (F-DBL-1)"))
                if closest:
                    hands.type(form.get_by_label(re.compile("^Ближе всего к врагу")), closest)
                with submitting(page):
                    hands.type(form.get_by_label("Расстояние, дюймы"), distance, send=True)
            done(page)
            expect(page.locator("#rec-fow_move .refusal, #rec-fow_move .errorlist")).to_have_count(0)
            landed(page, "fow_move", f"движение на {distance}″")

        def shoot(page, shooter: str, dice: int, target: str, distance: str, *, faces: str | None = None,
                  hits: str | None = None, result: str | None = None, pinned: bool = False) -> None:
            """A shot with exactly the dice the form says the shooter rolls; what the table decided, if given."""
            form = page.locator("#rec-fow_shot")
            who = form.get_by_label(re.compile("^Кто стреляет"))
            with hands.measure("FoW: shoot, dice rolled, the table decides later" if faces is None and hits is None
                               else "FoW: shoot with the table's dice and result"):
                hands.choose(who, option(who, re.compile(rf"^{team_re(shooter)}.* — {dice} куб\.$")))
                aim = form.locator("select[name=fow_shot-target]")
                hands.choose(aim, option(aim, re.compile(rf"^{team_re(target)}")))
                if faces is not None:
                    hands.choose(form.locator("select[name=fow_shot-dice__source]"), "entered")
                    hands.type(form.get_by_label("Значения за столом, через пробел"), faces)
                if hits is not None:
                    hands.type(form.get_by_label("Попаданий (решает стол, G-F1)"), hits)
                if result is not None:
                    hands.choose(form.get_by_label("Итог для цели (решает стол)"), result)
                if pinned:
                    hands.click(form.get_by_label("Взвод цели Прижат Огнём (Pinned Down)"))
                with submitting(page):
                    hands.type(form.get_by_label("Дистанция до цели, дюймы"), distance, send=True)
            done(page)

        def end_turn(page, name: str, unused: str) -> None:
            turn = page.locator("#rec-quick_turn")
            with hands.measure("FoW: end the turn"):
                hands.click(turn.locator("summary"))
                expect(turn).to_contain_text(unused)
                screen(page, name)
                with submitting(page):
                    hands.click(turn.get_by_role("button", name="Да, завершить ход («Ход»)"))
            done(page)

        # --- Вермахт, turn 1 ------------------------------------------------------------------------------
        expect(hans.locator("#state-region")).to_contain_text("Покинутые (Bailed Out) 0")
        screen(hans, "01-hans-turn1")
        if width < 500:
            whole_words(hans)
        move(hans, "Стрелковое отделение №1, 1-й взвод", "10", double=True, closest="12")
        move(hans, "Бронеавтомобиль разведки №1, Разведка", "8")
        who = hans.locator("#rec-fow_shot").get_by_label(re.compile("^Кто стреляет"))
        # the dice the rules give (G-F1 Rate of Fire): 1 after moving, 2 standing still
        expect(who.locator("option", has_text="Бронеавтомобиль разведки №1, Разведка — 1 куб.")).to_have_count(1)
        expect(who.locator("option", has_text="Бронеавтомобиль разведки №2, Разведка — 2 куб.")).to_have_count(1)
        shoot(hans, "Бронеавтомобиль разведки №1, Разведка", 1, "Средний танк №2, Танковый взвод", "16")
        landed(hans, "fow_shot", "попадания и их итог решает стол")
        shoot(hans, "Бронеавтомобиль разведки №2, Разведка", 2, "Средний танк №1, Танковый взвод", "14",
              hits="1", result="bailed_out", pinned=True)
        landed(hans, "fow_shot", "решение стола: попаданий — 1, цель Покинута (Bailed Out)")
        screen(hans, "02-hans-shot")
        end_turn(hans, "03-hans-hod-confirm", "Командное отделение №1, 1-й взвод")
        assert to_move(hans) == "РККА"

        # --- РККА, turn 1 -----------------------------------------------------------------------------------
        caught_up(ivan, latest)
        state = ivan.locator("#state-region")
        expect(state).to_contain_text("Покинутый (Bailed Out)")
        expect(state).to_contain_text("Прижат")  # his tank platoon was Pinned Down
        expect(ivan.locator("#rec-fow_move")).to_contain_text("Средний танк №1, Танковый взвод · Покинутый (Bailed Out)")
        move(ivan, "Стрелковое отделение №1, Стрелковый взвод", "4")
        target = ivan.locator("#rec-fow_shot select[name=fow_shot-target]")
        expect(target.locator("option", has_text="Стрелковое отделение №1, 1-й взвод")).to_contain_text(
            "кубиков вдвое больше")  # it ran At the Double (F-DBL-10)
        # too few faces for the dice the rules give: refused on the form, in words, nothing sent
        shoot(ivan, "Стрелковое отделение №2, Стрелковый взвод", 2, "Стрелковое отделение №1, 1-й взвод", "9",
              faces="6 5", hits="2", result="destroyed")
        refusal = ivan.locator("#rec-fow_shot")
        expect(refusal).to_contain_text("Стрелок бросает 4 куб. (F-DBL-10)")
        expect(refusal.locator(".errorlist")).to_be_in_viewport()
        expect(refusal.get_by_label("Попаданий (решает стол, G-F1)")).to_have_value("2")  # what he typed is kept
        expect(refusal.get_by_label("Итог для цели (решает стол)")).to_have_value("destroyed")
        screen(ivan, "04-ivan-too-few-dice")
        form = ivan.locator("#rec-fow_shot")
        with hands.measure("FoW: correct the dice after the refusal"):
            with submitting(ivan):
                hands.type(form.get_by_label("Значения за столом, через пробел"), "6 5 3 1", send=True)
        done(ivan)
        landed(ivan, "fow_shot", "кубиков — 4")
        expect(ivan.locator("#last-entry")).to_contain_text("на 9″")
        expect(ivan.locator("#last-entry")).to_contain_text("1-й взвод — уничтожен (Destroyed)")
        end_turn(ivan, "05-ivan-hod-confirm", "Средний танк №2, Танковый взвод")
        assert to_move(ivan) == "Вермахт"
        caught_up(hans, latest)
        assert to_move(hans) == "Вермахт"

        # --- the log and the page speak Flames of War ---------------------------------------------------------
        log = ivan.locator("#log-region")
        for sentence in (
                "Стрелковое отделение №1, 1-й взвод: движение на 10″ С Удвоенной Скоростью (F-DBL-1); "
                "ближе всего к врагу — 12″",
                "Бронеавтомобиль разведки №1, Разведка: стрельба по цели Средний танк №2, Танковый взвод на 16″; "
                "кубиков — 1:",
                "попадания и их итог решает стол (G-F1)",
                "Бронеавтомобиль разведки №2, Разведка: стрельба по цели Средний танк №1, Танковый взвод на 14″; "
                "кубиков — 2:",
                "решение стола: попаданий — 1, цель Покинута (Bailed Out), взвод цели Прижат Огнём (Pinned Down)",
                "Стрелковое отделение №2, Стрелковый взвод: стрельба по цели Стрелковое отделение №1, 1-й взвод на 9″; "
                "кубиков — 4: с кубиков за столом 6, 5, 3, 1; решение стола: попаданий — 2, цель Уничтожена (Destroyed)"):
            expect(log).to_contain_text(sentence)
        shots = [t for t in log.locator("li").all_inner_texts() if ": стрельба по цели " in t]
        assert len(shots) == 3, shots
        for text in shots:  # target, distance, dice, and who decided the result
            assert re.search(r"по цели .+ на \d+″; кубиков — \d:", text) and "стол" in text, text
        screen(ivan, "06-ivan-log")
        text = ivan.locator("main").inner_text()
        for word in ("Покинут", "Bailed Out", "Pinned Down", "Destroyed", "взвод", "(team)"):
            assert word in text, word
        for v11 in ("Боец", "ранены", "в плену", "Класс", "hans-", "ivan-", "None"):
            assert v11 not in text, v11
        assert not re.search(r"\([a-z]+_[a-z_]+\)", text), re.search(r"\([a-z]+_[a-z_]+\)", text)

    from battles.models import Battle, BattleEvent

    battle = Battle.objects.get(name="Бой у разъезда")
    events = [(e.type, e.recorded_by.username, e.data) for e in
              BattleEvent.objects.filter(battle=battle).select_related("recorded_by").order_by("seq")]
    assert [(t, who) for t, who, _ in events][3:] == [
        ("team_moved", "hans"), ("team_moved", "hans"), ("team_shot", "hans"), ("team_shot", "hans"),
        ("turn_ended", "hans"), ("team_moved", "ivan"), ("team_shot", "ivan"), ("turn_ended", "ivan")]
    shots = [d for t, _, d in events if t == "team_shot"]
    assert [len(d["dice"]) for d in shots] == [1, 2, 4]
    assert [x["source"] for x in shots[0]["dice"]] == ["rolled"] and shots[1]["result"] == "bailed_out"
    assert [x["value"] for x in shots[2]["dice"]] == [6, 5, 3, 1]
    print(f"\n[FoW {width}px] interactions:", hands.measured, "gaps:", gaps)
    assert max(hands.measured["FoW: move one team"]) <= 2
    assert max(hands.measured["FoW: shoot, dice rolled, the table decides later"]) <= 3
    assert max(hands.measured["FoW: end the turn"]) <= 2
    assert not gaps, "what the issue asks and the pages do not do yet:\n- " + "\n- ".join(gaps)


def team_re(label: str) -> str:
    return re.escape(label)
