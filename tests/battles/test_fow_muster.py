"""Mustering a FoW campaign's rosters: platoons of teams with readable, stable
ids and names, an armoured train with its Locomotive and tank escort, then the
FoW battle_started (units, first mover)."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent
from battles.selectors import battle_names, battle_state_get
from battles.services import battle_replay
from battles.setup import muster
from config.errors import InvalidInput
from rosters import services
from rosters.models import FowTeamType


def build_fow_roster(user, character, campaign, *, name, train=False):
    r = services.roster_create(user=user, character=character, name=name, campaign=campaign)
    t = {x.code: x for x in FowTeamType.objects.all()}
    if train:
        bp = services.unit_add(user=user, roster=r, kind="fow_platoon", fow_kind="armoured_train",
                               name="Бронепоезд «Ильич»")
        services.fow_team_add(user=user, roster=r, unit=bp, team_type=t["locomotive"])
        services.fow_team_add(user=user, roster=r, unit=bp, team_type=t["artillery_wagon"], count=2)
        esc = services.unit_add(user=user, roster=r, kind="fow_platoon", fow_kind="tank", name="Танковый десант",
                                parent=bp)
        services.fow_team_add(user=user, roster=r, unit=esc, team_type=t["medium_tank"], count=2)
    else:
        inf = services.unit_add(user=user, roster=r, kind="fow_platoon", fow_kind="infantry", name="1-й взвод")
        services.fow_team_add(user=user, roster=r, unit=inf, team_type=t["command_team"])
        services.fow_team_add(user=user, roster=r, unit=inf, team_type=t["rifle_team"], count=3)
        rec = services.unit_add(user=user, roster=r, kind="fow_platoon", fow_kind="recon", name="Разведка")
        services.fow_team_add(user=user, roster=r, unit=rec, team_type=t["scout_car"], count=2)
    services.roster_submit(user=user, roster=r)
    r.refresh_from_db()
    return r


@pytest.fixture
def fow_table(campaign, game_master, make_member):
    from campaign import services as campaign_services

    campaign.ruleset = "fow"
    campaign.attacker_name, campaign.defender_name = "Вермахт", "РККА"
    campaign.save()
    ivan, ivan_char = make_member(campaign, "ivan", "defender", by=game_master)
    hans, hans_char = make_member(campaign, "hans", "attacker", by=game_master)
    campaign_services.campaign_start(campaign=campaign, by=game_master)
    ivan_roster = build_fow_roster(ivan, ivan_char, campaign, name="Бронепоезд", train=True)
    hans_roster = build_fow_roster(hans, hans_char, campaign, name="Kampfgruppe")
    battle = muster.battle_schedule(user=game_master, campaign=campaign, name="Бой у разъезда")
    muster.battle_participant_add(user=game_master, battle=battle, character=ivan_char, roster=ivan_roster)
    muster.battle_participant_add(user=game_master, battle=battle, character=hans_char, roster=hans_roster)
    ns = type("Table", (), {})()
    ns.gm, ns.battle, ns.campaign = game_master, battle, campaign
    return ns


def _events(battle):
    return list(BattleEvent.objects.filter(battle=battle).order_by("seq"))


def test_a_fow_roster_becomes_platoons_of_teams_then_the_fow_battle_started(fow_table):
    muster.battle_muster(user=fow_table.gm, battle=fow_table.battle, units="cm", first_mover="defender")
    events = _events(fow_table.battle)
    assert [e.type for e in events] == ["force_mustered", "force_mustered", "battle_started"]
    assert events[2].data == {"attacker": "Вермахт", "defender": "РККА", "ruleset": "fow", "units": "cm",
                              "first_mover": "defender"}
    hans = {e.data["side"]: e.data for e in events[:2]}["attacker"]["platoons"]
    assert [(p["id"], p["kind"], p["name"], p["command"]) for p in hans] == [
        ("hans-p1", "infantry", "1-й взвод", "hans-p1-t1"), ("hans-p2", "recon", "Разведка", "hans-p2-t1")]
    assert [(t["id"], t["name"], t["kind"]) for t in hans[0]["teams"]] == [
        ("hans-p1-t1", "Командное отделение №1", "infantry"), ("hans-p1-t2", "Стрелковое отделение №1", "infantry"),
        ("hans-p1-t3", "Стрелковое отделение №2", "infantry"), ("hans-p1-t4", "Стрелковое отделение №3", "infantry")]
    assert hans[0]["teams"][1]["movement"] == 15  # the team type's cm value in a cm battle
    assert all(t["recon"] for t in hans[1]["teams"])


def test_f_recon_1_g_f3_the_train_its_locomotive_and_escort_reach_the_engine_state(fow_table):
    muster.battle_muster(user=fow_table.gm, battle=fow_table.battle)
    events = _events(fow_table.battle)
    ivan = {e.data["side"]: e.data for e in events[:2]}["defender"]["platoons"]
    train, escort = ivan
    assert train["id"] == "ivan-p1" and train["escorts"] == ["ivan-p2"] and escort["escorts"] == []
    assert [t["locomotive"] for t in train["teams"]] == [True, False, False]
    assert [t["name"] for t in train["teams"]] == ["Бронепаровоз (Локомотив) №1", "Артиллерийская бронеплощадка №1",
                                                   "Артиллерийская бронеплощадка №2"]
    assert escort["teams"][0]["movement"] == 12 and escort["teams"][0]["armoured"]
    battle_replay(battle_id=fow_table.battle.pk)  # what the worker does after the commit
    state = battle_state_get(battle_id=fow_table.battle.pk).state
    names = battle_names(battle_id=fow_table.battle.pk)
    assert names["ivan-p1"] == "Бронепоезд «Ильич»" and names["ivan-p1-t2"] == "Артиллерийская бронеплощадка №1"
    assert state["ruleset"] == "fow" and state["measure"] == "in" and state["status"] == "running"
    assert state["trains"]["ivan-p1"]["locomotive"] == "ivan-p1-t1"
    assert state["trains"]["ivan-p1"]["escorts"] == ["ivan-p2"] and state["platoons"]["ivan-p2"]["train"] == "ivan-p1"
    assert state["teams"]["hans-p2-t1"]["recon"] and not state["teams"]["hans-p1-t1"]["recon"]  # F-RECON-1


def test_ids_are_stable_for_equal_rosters(fow_table):
    from rosters.selectors import roster_tree

    roster = fow_table.battle.participants.get(character__owner__username="ivan").roster
    tree = roster_tree(roster_id=roster.pk)
    assert muster.fow_roster_platoons(tree=tree, prefix="ivan") == muster.fow_roster_platoons(
        tree=roster_tree(roster_id=roster.pk), prefix="ivan")


@pytest.mark.parametrize("kwargs", [{"units": "mm"}, {"first_mover": "nobody"}])
def test_the_units_and_first_mover_are_checked(fow_table, kwargs):
    with pytest.raises(InvalidInput) as exc:
        muster.battle_muster(user=fow_table.gm, battle=fow_table.battle, **kwargs)
    assert exc.value.field == next(iter(kwargs))
    assert not BattleEvent.objects.filter(battle=fow_table.battle).exists()
