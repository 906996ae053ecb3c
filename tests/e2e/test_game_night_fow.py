"""Done means (issue 25), Flames of War: two turns through the FoW quick panel in Chromium, at 1280 and
375 px (move, At the Double, shoot with the dice the rules give, «Ход»), asserting FoW words on the page and
log sentences with target, distance, dice and result. The v11.2 evening and the helpers both files use
(``Hands``, ``Gaps``, …) are in ``test_game_night``.

Set SHTAB_SHOTS=<dir> to keep screenshots of the key moments.
"""
from __future__ import annotations

import re

import pytest

from tests.e2e.test_battle_table import enlist
from tests.e2e.test_game_night import (
    WIDTHS,
    Gaps,
    Hands,
    Shots,
    _login,
    caught_up,
    head,
    landed,
    option,
    submitting,
    to_move,
    whole_words,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fow_club(transactional_db, game_master, replay_worker):
    """A running Flames of War campaign: ivan (РККА, defender) with a tank and a rifle platoon, hans
    (Вермахт, attacker) with an infantry and a recon platoon, each roster submitted."""
    from campaign.models import Campaign
    from rosters import services as rosters
    from rosters.models import FowTeamType
    from tests.battles.test_fow_muster import build_fow_roster

    campaign = Campaign.objects.create(name="Осень сорок первого (FoW)", attacker_name="Вермахт",
                                       defender_name="РККА", ruleset="fow")
    ns = type("FowClub", (), {})()
    ns.campaign, ns.gm = campaign, game_master
    enlist(ns, campaign, game_master)
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
