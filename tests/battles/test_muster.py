"""Mustering: rosters become each side's force_mustered (battles.setup.muster)."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent, BattleParticipant
from battles.setup import muster
from config.errors import Conflict, Forbidden, InvalidInput
from rosters.models import Status

from .conftest import build_roster, cls


def _add_both(t):
    muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
    muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.hans_char, roster=t.hans_roster)


def _forces(battle):
    return {e.data["side"]: e.data for e in BattleEvent.objects.filter(battle=battle, type="force_mustered")}


def _by_id(specs):
    return {s["id"]: s for s in specs}


@pytest.fixture
def mustered(table):
    _add_both(table)
    table.result = muster.battle_muster(user=table.gm, battle=table.battle)
    return table


class TestMapping:
    def test_one_force_mustered_per_side_then_battle_started_with_the_campaign_side_names(self, mustered):
        events = list(BattleEvent.objects.filter(battle=mustered.battle).order_by("seq"))
        assert [e.type for e in events] == ["force_mustered", "force_mustered", "battle_started"]
        assert {e.data["side"] for e in events[:2]} == {"attacker", "defender"}
        assert events[2].data["attacker"] == "Вермахт" and events[2].data["defender"] == "РККА"
        assert all(e.recorded_by_id == mustered.gm.pk for e in events)
        assert all(e.key.startswith(f"muster-{mustered.battle.pk}-") for e in events)

    def test_v_turn_2_and_3_the_defender_is_deployed_before_the_attacker(self, mustered):
        """V-TURN-2: the defending army is deployed first; V-TURN-3: then the attacking army. The log
        records the deployment in that order: the defender's force_mustered comes first."""
        events = BattleEvent.objects.filter(battle=mustered.battle, type="force_mustered").order_by("seq")
        assert [e.data["side"] for e in events] == ["defender", "attacker"]

    def test_v_turn_8_after_the_muster_the_defender_moves_first(self, mustered):
        """V-TURN-8: the first turn begins and the defending side moves first. The attacker
        cannot end turn 1 before the defender has (V-TURN-12 cites whose turn it is)."""
        from battles import services
        from battles.selectors import battle_state_get
        from config.errors import RuleRefused

        battle = mustered.battle
        services.battle_replay(battle_id=battle.pk)
        state = battle_state_get(battle_id=battle.pk).state
        assert state["status"] == "running" and state["turn"] == 1
        assert state["first_mover"] == "defender" and state["side_to_move"] == "defender"
        attacker_first = services.NewEvent("turn_ended", {"side": "attacker", "turn": 1})
        with pytest.raises(RuleRefused) as exc:
            services.battle_event_append(battle_id=battle.pk, events=[attacker_first], expected_seq=3,
                                         recorded_by=mustered.gm, as_game_master=True)
        assert exc.value.rule_id == "V-TURN-12"
        services.battle_event_append(battle_id=battle.pk, events=[services.NewEvent(
            "turn_ended", {"side": "defender", "turn": 1})], expected_seq=3, recorded_by=mustered.gm,
            as_game_master=True)
        services.battle_replay(battle_id=battle.pk)
        assert battle_state_get(battle_id=battle.pk).state["side_to_move"] == "attacker"

    def test_v_off_9_the_character_is_his_own_ranks_officer_standing_alone(self, mustered):
        ivan = _by_id(_forces(mustered.battle)["defender"]["fighters"])
        figure = [f for f in ivan.values() if f.get("character")]
        assert len(figure) == 1
        assert figure[0] == {**figure[0], "id": "ivan-f1", "unit": "", "cls": "officer", "rank": "lieutenant",
                             "character": str(mustered.ivan_char.pk), "name": "Лейтенант Ivan"}

    def test_classes_ranks_and_russian_names_numbered_within_the_squad(self, mustered):
        ivan = _by_id(_forces(mustered.battle)["defender"]["fighters"])
        assert (ivan["ivan-s1-f1"]["cls"], ivan["ivan-s1-f1"]["rank"], ivan["ivan-s1-f1"]["name"]) == \
            ("officer", "sergeant", "Сержант №1")
        assert (ivan["ivan-s1-f4"]["cls"], ivan["ivan-s1-f4"]["rank"], ivan["ivan-s1-f4"]["name"]) == \
            ("rifleman", "", "Стрелок №3")
        assert (ivan["ivan-s1-f10"]["cls"], ivan["ivan-s1-f10"]["name"]) == ("medic", "Медик №1")
        assert not ivan["ivan-s1-f1"].get("character")

    def test_a_row_of_count_n_becomes_n_fighters(self, mustered):
        ivan = _forces(mustered.battle)["defender"]["fighters"]
        riflemen = [f for f in ivan if f["unit"].startswith("ivan-s1") and f["cls"] == "rifleman"]
        assert len(riflemen) == 4 + 3
        assert len(ivan) == 1 + 10 + 3  # lieutenant, the squad, the tank's crew

    def test_v_squad_4_the_second_fire_team_is_a_unit_of_its_squad_led_by_its_corporal(self, mustered):
        data = _forces(mustered.battle)["defender"]
        units = _by_id(data["units"])
        assert units["ivan-s1"] == {**units["ivan-s1"], "kind": "squad", "name": "1-е отделение",
                                    "commander": "ivan-s1-f1"}
        assert units["ivan-s1-t2"] == {**units["ivan-s1-t2"], "kind": "fire_team", "parent": "ivan-s1",
                                       "commander": "ivan-s1-f6", "name": "1-е отделение, огневая группа 2"}
        fighters = _by_id(data["fighters"])
        assert [fighters[f"ivan-s1-f{n}"]["unit"] for n in range(1, 11)] == ["ivan-s1"] * 5 + ["ivan-s1-t2"] * 5

    def test_vehicle_with_class_options_and_its_crew(self, mustered):
        data = _forces(mustered.battle)["defender"]
        tank = _by_id(data["vehicles"])["ivan-v1"]
        assert tank == {**tank, "kind": "tank", "drive": "tracked", "armour": 3, "gun": 3, "weapon": "gun",
                        "skirts": True, "specialisations": ["spotter"], "name": "Т-34 «Гроза»",
                        "crew": ["ivan-v1-f1", "ivan-v1-f2", "ivan-v1-f3"]}
        fighters = _by_id(data["fighters"])
        # names stay the roster's: ivan is Soviet, his corporal a «Младший сержант» (issue 25)
        assert [fighters[c]["name"] for c in tank["crew"]] == ["Младший сержант №1", "Персонал №1", "Персонал №2"]
        assert [fighters[c]["cls"] for c in tank["crew"]] == ["officer", "personnel", "personnel"]

    def test_the_engine_state_holds_the_crew_aboard_and_the_names_are_readable(self, mustered):
        from battles.selectors import battle_names
        from battles.services import battle_replay

        battle_replay(battle_id=mustered.battle.pk)
        mustered.battle.projection.refresh_from_db()
        state = mustered.battle.projection.state
        assert state["status"] == "running"
        assert state["fighters"]["ivan-v1-f2"]["aboard"] == "ivan-v1"
        names = battle_names(battle_id=mustered.battle.pk)
        assert names["hans-f1"] == "Лейтенант Hans" and names["ivan-v1"] == "Т-34 «Гроза»"

    def test_ids_are_stable_across_two_musters_of_equal_rosters_in_two_battles(self, table):
        t = table
        _add_both(t)
        muster.battle_muster(user=t.gm, battle=t.battle)
        ivan2 = build_roster(t.ivan, t.ivan_char, t.campaign, name="Рота Громова (копия)", lieutenant=True, tank=True)
        hans2 = build_roster(t.hans, t.hans_char, t.campaign, name="Kampfgruppe (копия)", lieutenant=True)
        second = muster.battle_schedule(user=t.gm, campaign=t.campaign, name="Второй бой")
        muster.battle_participant_add(user=t.gm, battle=second, character=t.ivan_char, roster=ivan2)
        muster.battle_participant_add(user=t.gm, battle=second, character=t.hans_char, roster=hans2)
        muster.battle_muster(user=t.gm, battle=second)
        assert _forces(second) == _forces(t.battle)

    def test_ids_are_unique_in_the_battle_when_logins_slug_alike(self, table, make_member):
        t = table
        a, a_char = make_member(t.campaign, "ivan.p", "defender", by=t.gm)
        b, b_char = make_member(t.campaign, "ivanp", "attacker", by=t.gm)
        _add_both(t)
        for user, char in ((a, a_char), (b, b_char)):
            roster = build_roster(user, char, t.campaign, lieutenant=True)
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        muster.battle_muster(user=t.gm, battle=t.battle)
        forces = _forces(t.battle)
        for group in ("units", "fighters", "vehicles"):
            ids = [s["id"] for side in forces.values() for s in side[group]]
            assert len(ids) == len(set(ids))
        attacker = {f["id"] for f in forces["attacker"]["fighters"]}
        assert "ivanp-2-f1" in attacker and "ivanp-f1" in {f["id"] for f in forces["defender"]["fighters"]}

    def test_pillbox_is_an_immobile_artillery_piece_and_a_tank_howitzer_keeps_its_kind(self, table):
        from rosters import services as rosters
        from rosters.models import VehicleOption
        from rosters.selectors import roster_tree

        t = table
        roster = rosters.roster_create(user=t.ivan, character=t.ivan_char, name="Укрепления", campaign=t.campaign)
        box = rosters.vehicle_add(user=t.ivan, roster=roster, kind="pillbox", name="ДОТ-1", armour_class=4,
                                  gun_class=2, options=list(VehicleOption.objects.filter(code="spotter")))
        rosters.fighter_add(user=t.ivan, roster=roster, infantry_class=cls("personnel"), count=2, vehicle=box)
        rosters.vehicle_add(user=t.ivan, roster=roster, kind="tank", gun_type="howitzer", armour_class=9,
                            gun_class=4)
        rosters.vehicle_add(user=t.ivan, roster=roster, kind="artillery", gun_type="aa", gun_class=2,
                            options=list(VehicleOption.objects.filter(code="aa_at_fire")))
        force = muster.roster_force(tree=roster_tree(roster_id=roster.pk), prefix="ivan")
        pillbox, tank, aa = force.vehicles
        assert pillbox == {**pillbox, "id": "ivan-v1", "kind": "artillery", "drive": "none", "armour": 4, "gun": 2,
                           "weapon": "gun", "specialisations": ["spotter"], "crew": ["ivan-v1-f1", "ivan-v1-f2"],
                           "name": "ДОТ-1"}
        assert (tank["weapon"], tank["armour"], tank["name"]) == ("tank_howitzer", 6, "Танк №1")
        assert (aa["weapon"], aa["drive"], aa["specialisations"]) == ("aa_gun", "towed", ["at_fire"])


class TestRefusals:
    @pytest.mark.parametrize("action", ["schedule", "add", "remove", "muster"])
    def test_only_the_game_master_sets_a_battle_up_checked_before_anything_else(self, table, action):
        t = table
        participant = BattleParticipant(pk=999999, battle=t.battle, character=t.ivan_char, side="defender")
        calls = {
            "schedule": lambda: muster.battle_schedule(user=t.ivan, campaign=t.campaign, name=""),
            "add": lambda: muster.battle_participant_add(user=t.ivan, battle=t.battle, character=t.hans_char,
                                                         roster=t.ivan_roster),
            "remove": lambda: muster.battle_participant_remove(user=t.ivan, participant=participant),
            "muster": lambda: muster.battle_muster(user=t.ivan, battle=t.battle),
        }
        with pytest.raises(Forbidden):
            calls[action]()
        assert not BattleParticipant.objects.exists() and t.battle.events.count() == 0

    def test_a_draft_roster_is_refused(self, table):
        t = table
        draft = build_roster(t.ivan, t.ivan_char, t.campaign, name="Черновик", lieutenant=True, submit=False)
        with pytest.raises(InvalidInput) as err:
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=draft)
        assert err.value.field == "roster" and err.value.code == "roster_not_submitted"
        assert "Черновик" in err.value.message_ru

    def test_another_characters_roster_is_refused(self, table):
        t = table
        with pytest.raises(InvalidInput, match="another character"):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.hans_roster)

    def test_a_roster_for_the_other_side_is_refused(self, table):
        t = table
        type(t.ivan_roster).objects.filter(pk=t.ivan_roster.pk).update(side="attacker")
        t.ivan_roster.refresh_from_db()
        with pytest.raises(InvalidInput) as err:
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        assert err.value.code == "roster_other_side"

    def test_a_roster_of_another_campaign_is_refused(self, table):
        from campaign import services
        from campaign.models import Campaign

        t = table
        other = Campaign.objects.create(name="Другая кампания")
        m = services.membership_request(campaign=other, character=t.ivan_char)
        services.membership_assign_side(membership=m, side="defender", by=t.gm)
        roster = build_roster(t.ivan, t.ivan_char, other, name="Чужая", lieutenant=True)
        with pytest.raises(InvalidInput, match="not for this campaign"):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=roster)

    def test_a_character_outside_the_campaign_is_refused(self, table, make_member):
        from campaign.models import Campaign

        t = table
        other = Campaign.objects.create(name="Другая кампания")
        user, char = make_member(other, "fritz", "attacker", by=t.gm)
        roster = build_roster(user, char, other, lieutenant=True)
        with pytest.raises(InvalidInput) as err:
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        assert err.value.field == "character"

    def test_v_turn_1_a_roster_made_invalid_by_new_game_data_is_refused_at_add_and_at_muster(self, table):
        from rosters.models import InfantryClass

        t = table
        _add_both(t)
        InfantryClass.objects.filter(code="rifleman").update(cost=10)  # far over every budget (V-PP-3)
        with pytest.raises(InvalidInput) as err:
            muster.battle_muster(user=t.gm, battle=t.battle)
        assert err.value.code == "roster_invalid" and err.value.rule_id.startswith("V-PP-")
        assert t.battle.events.count() == 0
        BattleParticipant.objects.filter(character=t.ivan_char).delete()
        with pytest.raises(InvalidInput):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)

    def test_a_side_without_participants_cannot_be_mustered(self, table):
        t = table
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        with pytest.raises(InvalidInput) as err:
            muster.battle_muster(user=t.gm, battle=t.battle)
        assert err.value.code == "side_empty" and "атакующих" in err.value.message_ru
        assert t.battle.events.count() == 0

    def test_the_same_character_twice_is_refused(self, table):
        t = table
        _add_both(t)
        with pytest.raises(Conflict):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)

    def test_mustering_twice_adding_or_removing_after_the_muster_are_refused(self, mustered):
        t = mustered
        head = t.battle.events.count()
        with pytest.raises(Conflict) as err:
            muster.battle_muster(user=t.gm, battle=t.battle)
        assert err.value.code == "already_mustered"
        with pytest.raises(Conflict):
            muster.battle_participant_remove(user=t.gm, participant=t.battle.participants.first())
        assert t.battle.events.count() == head and t.battle.participants.count() == 2

    def test_a_hand_recorded_muster_also_closes_the_setup(self, table):
        from battles.services import NewEvent, battle_event_append

        t = table
        battle_event_append(battle_id=t.battle.pk, expected_seq=0, as_game_master=True, events=[
            NewEvent(type="force_mustered", data={"side": "attacker", "fighters": [{"id": "x"}]})])
        with pytest.raises(Conflict):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)


class TestSnapshotAndLocking:
    def test_each_participant_keeps_the_event_price_and_game_data_version_he_was_mustered_with(self, mustered):
        t = mustered
        seqs = {e.data["side"]: e.seq for e in t.battle.events.filter(type="force_mustered")}
        for p in t.battle.participants.select_related("roster"):
            assert p.mustered_seq == seqs[p.side]
            assert p.mustered_total == p.roster.priced_total > 0
            assert p.mustered_version == p.roster.priced_version_id is not None
            assert p.mustered_at is not None

    def test_the_snapshot_is_not_rewritten_when_game_data_changes_later(self, mustered):
        from rosters.models import InfantryClass
        from rosters.services import game_data_version_bump

        t = mustered
        before = list(t.battle.participants.values_list("mustered_total", "mustered_version"))
        InfantryClass.objects.filter(code="rifleman").update(cost=2)
        game_data_version_bump(note="test")
        assert list(t.battle.participants.values_list("mustered_total", "mustered_version")) == before

    def test_mustered_rosters_are_locked_and_released_when_the_battle_ends(self, mustered,
                                                                           django_capture_on_commit_callbacks):
        from battles.services import BATTLE_ENDED_HOOKS, NewEvent, battle_event_append, battle_replay

        t = mustered
        assert muster.rosters_release in BATTLE_ENDED_HOOKS
        for roster in (t.ivan_roster, t.hans_roster):
            roster.refresh_from_db()
            assert roster.status == Status.LOCKED
        with django_capture_on_commit_callbacks(execute=True):
            battle_event_append(battle_id=t.battle.pk, expected_seq=t.result.battle.head_seq, as_game_master=True,
                                recorded_by=t.gm,
                                events=[NewEvent(type="battle_ended", data={"winner": "defender", "reason": "x"})])
            battle_replay(battle_id=t.battle.pk)
        for roster in (t.ivan_roster, t.hans_roster):
            roster.refresh_from_db()
            assert roster.status == Status.SUBMITTED

    def test_a_locked_roster_cannot_be_mustered_into_another_battle(self, mustered):
        t = mustered
        second = muster.battle_schedule(user=t.gm, campaign=t.campaign, name="Второй бой")
        t.ivan_roster.refresh_from_db()
        with pytest.raises(Conflict) as err:
            muster.battle_participant_add(user=t.gm, battle=second, character=t.ivan_char, roster=t.ivan_roster)
        assert err.value.code == "roster_locked"  # naming the battle: test_locked_roster_names_its_battle

    def test_release_keeps_a_roster_locked_by_another_running_battle(self, mustered):
        t = mustered
        from battles.models import BattleParticipant as P

        second = muster.battle_schedule(user=t.gm, campaign=t.campaign, name="Второй бой")
        P.objects.create(battle=second, character=t.ivan_char, side="defender", roster=t.ivan_roster,
                         mustered_seq=1)
        assert muster.rosters_release(t.battle.pk) == 1  # hans's only
        t.ivan_roster.refresh_from_db()
        assert t.ivan_roster.status == Status.LOCKED

    def test_schedule_sets_the_date_and_the_mission(self, table):
        from django.utils import timezone

        when = timezone.now().replace(microsecond=0)
        battle = muster.battle_schedule(user=table.gm, campaign=table.campaign, name="Ночной бой",
                                        scheduled_for=when, mission="Взять мост")
        battle.refresh_from_db()
        assert (battle.scheduled_for, battle.mission, battle.number) == (when, "Взять мост", 2)
